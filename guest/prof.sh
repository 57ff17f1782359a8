#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=prof (scripts/profile): one configuration of a getpid() loop,
# for the QEMU plugin that counts each kernel instruction the guest runs.
#   pf.case=none  nothing on getpid()'s path
#   pf.case=ft    the function tracer, filtered to __do_sys_getpid
#   pf.case=ev    a tracefs kprobe event on __x64_sys_getpid (an
#                 ftrace-based kprobe at __do_sys_getpid's call site)
#   pf.case=both  both: the event on a site the function tracer shares
#   pf.n=N        getpid() calls (200000)
# Prints "PF-PROF <case> <guest ns per call>" (instructions under icount).
T=/sys/kernel/tracing
P=/kselftest/kprobes/probe_paths
CASE=none N=200000
for arg in $(cat /proc/cmdline); do
	case $arg in
	pf.case=*) CASE=${arg#pf.case=} ;;
	pf.n=*) N=${arg#pf.n=} ;;
	esac
done
case $CASE in
none|ft|ev|both) ;;
*) echo "prof.sh: unknown pf.case=$CASE"; exit 1 ;;
esac
if [ "$CASE" = ft ] || [ "$CASE" = both ]; then
	echo __do_sys_getpid > $T/set_ftrace_filter &&
		echo function > $T/current_tracer || exit 1
fi
if [ "$CASE" = ev ] || [ "$CASE" = both ]; then
	echo "p:pf/kps __x64_sys_getpid" >> $T/kprobe_events &&
		echo 1 > $T/events/pf/kps/enable || exit 1
fi
set -- $($P -r 1 -g "$N")
echo "PF-PROF $CASE $1"
