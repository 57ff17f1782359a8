#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=bpfst (make check-bpf): the kernel's BPF selftests that cover
# uprobes (scripts/build-bpf-selftests), run by test_progs from /bpfst; on
# a kernel with the series a second time with debug.uprobes-optimization
# flipped (jump-optimized uprobes are on by default).
T="uprobe_syscall,uretprobe_stack,uprobe_multi_test,attach_probe,usdt,uprobe_autoattach"
cd /bpfst || exit 1
echo "PF-BEGIN bpfst:default"
./test_progs -t "$T" 2>&1
echo "PF-END bpfst:default rc=$?"
uopt=/proc/sys/debug/uprobes-optimization
if [ -w $uopt ]; then
	was=$(cat $uopt)
	echo $((1 - was)) > $uopt
	echo "PF-BEGIN bpfst:uprobe_optimize_$((1 - was))"
	./test_progs -t "$T" 2>&1
	echo "PF-END bpfst:uprobe_optimize_$((1 - was)) rc=$?"
	echo $was > $uopt
fi
exit 0
