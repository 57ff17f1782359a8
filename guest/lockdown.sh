#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=lockdown, booted with lockdown=integrity as a Secure Boot
# distribution kernel runs: the series' run-time switches are sysctls
# (debug.uprobes-optimization, debug.uprobes-boost, next to 6.12's
# debug.kprobes-optimization) and must work there, where debugfs refuses
# writes; the optimized uprobes' test then runs with the switch set that way.
echo "PF-BEGIN lockdown"
echo "TAP version 13"
echo "1..5"
n=0
result() { # ok-if-zero description
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
lock=$(cat /sys/kernel/security/lockdown 2>/dev/null)
echo "# lockdown: ${lock:-none}"
case "$lock" in *"[integrity]"*) r=0 ;; *) r=1 ;; esac
result $r "lockdown: the kernel is locked down (integrity)"

# debugfs refuses writes under lockdown: what a debugfs switch would meet
if echo 1 > /sys/kernel/debug/kprobes/enabled 2>/dev/null; then r=1; else r=0; fi
result $r "lockdown: debugfs refuses a write"

for s in uprobes-optimization uprobes-boost kprobes-optimization; do
	f=/proc/sys/debug/$s
	old=$(cat $f 2>/dev/null)
	r=1
	if [ -n "$old" ] && echo 0 > $f && [ "$(cat $f)" = 0 ] &&
	   echo 1 > $f && [ "$(cat $f)" = 1 ]; then
		r=0
	fi
	[ -n "$old" ] && echo "$old" > $f
	result $r "lockdown: sysctl debug.$s can be switched"
done
echo "PF-END lockdown rc=0"

# The optimized uprobes' test, which turns the optimization on with the
# sysctl: it runs as it does without lockdown
ksft=/kselftest
if [ -x $ksft/kprobes/uprobe_optimized ]; then
	echo "PF-BEGIN lockdown:uprobe_optimized"
	(cd $ksft/kprobes && ./uprobe_optimized) 2>&1
	echo "PF-END lockdown:uprobe_optimized rc=$?"
fi
