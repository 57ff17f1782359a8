#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=check: the correctness tests.  KUnit's test_kprobes ran at boot;
# here ftracetest's probe cases and the tree's kprobes kselftests run.  Each
# block is framed by PF-BEGIN/PF-END so the host can parse its (K)TAP.
rc=0

echo "PF-BEGIN ftracetest"
cd /ftrace || exit 1
# The cases that cover kprobes, kretprobes, uprobes and dynamic events.
# Cases listed in ftracetest.skip (test file | reason) are not run.
cases=
for t in test.d/kprobe/*.tc test.d/dynevent/*.tc; do
	reason=$(grep "^$t *|" /root/ftracetest.skip 2>/dev/null | cut -d'|' -f2-)
	if [ -n "$reason" ]; then
		echo "PF-SKIP ftracetest: $(sed -n 's/^# description: //p' $t) |$reason"
		continue
	fi
	cases="$cases $t"
done
./ftracetest -K $cases 2>&1
echo "PF-END ftracetest rc=$?"

if [ -d /kselftest ]; then
	echo "PF-BEGIN kselftest"
	cd /kselftest || exit 1
	./run_kselftest.sh 2>&1
	echo "PF-END kselftest rc=$?"
fi
exit $rc
