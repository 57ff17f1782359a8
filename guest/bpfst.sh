#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=bpfst (make check-bpf): the kernel's BPF selftests that cover
# uprobes (scripts/build-bpf-selftests), run by test_progs from /bpfst; on
# a kernel with the series a second time with jump-optimized uprobes on.
T="uprobe_syscall,uretprobe_stack,uprobe_multi_test,attach_probe,usdt,uprobe_autoattach"
cd /bpfst || exit 1
echo "PF-BEGIN bpfst:default"
./test_progs -t "$T" 2>&1
echo "PF-END bpfst:default rc=$?"
uopt=/proc/sys/debug/uprobes-optimization
if [ -w $uopt ]; then
	echo 1 > $uopt
	echo "PF-BEGIN bpfst:uprobe_optimize"
	./test_progs -t "$T" 2>&1
	echo "PF-END bpfst:uprobe_optimize rc=$?"
	echo 0 > $uopt
fi
exit 0
