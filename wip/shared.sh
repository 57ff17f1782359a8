#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=shared (wip, not in make check): exact hit counts of every ftrace
# user of one site while the set of ftrace_ops on it changes.  The site is
# __do_sys_getpid; its users are the function tracer in instance A (pid
# filtered), a kprobe event and an fprobe event recorded in instance B.
# After each change, N getpid() calls must give exactly N records to every
# user on the site and none to the others, and enabled_functions says how
# many ops the site's caller calls ("ops: K", DYNAMIC_FTRACE_SITE_CALLERS).
# Run it with the guest's own init:  cp wip/shared.sh into the initramfs's
# /root/, boot with run-vm patched shared LOG.
T=/sys/kernel/tracing
P=/kselftest/kprobes/probe_paths
N=1000
A=$T/instances/wa
B=$T/instances/wb
fail=0
t0=$(cat /proc/sys/kernel/tainted)

ok() { echo "ok - $*"; }
bad() { echo "not ok - $*"; fail=1; }

# run N getpid() in a child whose pid both instances filter on
hits() {
	sh -c "echo \$\$ > $A/set_ftrace_pid; echo \$\$ > $B/set_event_pid;
	       exec $P -r 1 -g $N" > /dev/null
	echo 0 > $A/tracing_on
	echo 0 > $B/tracing_on
	ft=$(grep -c '__do_sys_getpid' $A/trace)
	kp=$(grep -c ' gp:' $B/trace)
	fp=$(grep -c ' fp:' $B/trace)
	echo > $A/trace
	echo > $B/trace
	echo 1 > $A/tracing_on
	echo 1 > $B/tracing_on
}

near() { [ "$1" -eq "$2" ] || { [ "$2" -gt 0 ] && [ "$1" -eq $(($2 + 1)) ]; }; }

# expect FT KP FP OPS: 1 or 0 per user (N or 0 records), the caller's ops
expect() {
	name=$1
	hits
	want_ft=$(($2 * N)) want_kp=$(($3 * N)) want_fp=$(($4 * N))
	# The child shell now and then calls getpid() once itself after its
	# pid filters are set: N or N + 1 passes, a user missing from the site
	# (0) or called twice (2N) does not.  wip/ftrace_shared.c counts in
	# its own loop only, exactly.
	near "$ft" "$want_ft" && near "$kp" "$want_kp" && near "$fp" "$want_fp" ||
		{ bad "$name: function $ft kprobe $kp fprobe $fp (want $want_ft $want_kp $want_fp)"; return; }
	line=$(grep '^__do_sys_getpid' $T/enabled_functions)
	if [ "$5" -ge 2 ] && ! echo "$line" | grep -q "ops: $5\$"; then
		bad "$name: enabled_functions: $line (want ops: $5)"
		return
	fi
	ok "$name ($ft $kp $fp; $line)"
}

mkdir $A $B || exit 1
echo 1 > $B/options/event-fork
echo 'p:wip/gp __x64_sys_getpid' >> $T/kprobe_events || exit 1

echo __do_sys_getpid > $A/set_ftrace_filter
echo function > $A/current_tracer
hits	# warm up: the first run recorded one getpid() of the shell's
expect "function tracer alone" 1 0 0 1
echo 1 > $B/events/wip/gp/enable
expect "function tracer and kprobe" 1 1 0 2
# an fprobe event registers its fprobe when it is made, not when enabled
echo 'f:wip/fp __do_sys_getpid' >> $T/dynamic_events || exit 1
echo 1 > $B/events/wip/fp/enable
expect "function tracer, kprobe, fprobe" 1 1 1 3
echo 0 > $B/events/wip/gp/enable
expect "function tracer and fprobe" 1 0 1 2
echo nop > $A/current_tracer
expect "fprobe alone" 0 0 1 1
echo 1 > $B/events/wip/gp/enable
expect "kprobe and fprobe" 0 1 1 2
echo function > $A/current_tracer
expect "all three again" 1 1 1 3

# toggle the kprobe under load: a background getpid loop, no WARN
sh -c "exec $P -r 20 -g 20000" > /dev/null &
i=0
while [ $i -lt 50 ]; do
	echo 0 > $B/events/wip/gp/enable
	echo 1 > $B/events/wip/gp/enable
	i=$((i + 1))
done
wait
expect "after 50 toggles under load" 1 1 1 3

echo nop > $A/current_tracer
echo 0 > $B/events/wip/gp/enable
echo 0 > $B/events/wip/fp/enable
echo '-:wip/gp' >> $T/kprobe_events
echo '-:wip/fp' >> $T/dynamic_events
rmdir $A $B
if grep -q ftrace_site_caller_func $T/enabled_functions; then
	bad "a site still calls a caller after every user left"
fi
[ "$(cat /proc/sys/kernel/tainted)" = "$t0" ] && ok "no taint" ||
	bad "tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops' && fail=1
echo "PF-SHARED fail=$fail"
exit $fail
