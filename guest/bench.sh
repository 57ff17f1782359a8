#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=bench: per-hit cost of each probe path.  The series' selftest
# (kprobes/probe_paths: module kprobes with counting handlers, and uprobes)
# gives most rows, bench/bpf/pfbpf the bpf_* rows (a counting BPF program);
# the getpid rows are tracefs probe events on the syscall
# path, what users of perf/ftrace pay.  Every row measures its own no-probe
# baseline right before the probed run, on the same workload, and prints
#   PF-BENCH <row> <base ns/call> <probed ns/call> <per-hit> <stddev> <hits> <expected> <missed>
# Under -icount shift=0 one ns is one guest instruction.
T=/sys/kernel/tracing
# the getpid() workload of the tracefs rows: probe_paths -g times it
P=/kselftest/kprobes/probe_paths
KITERS=${KITERS:-20000}
UITERS=${UITERS:-5000}
REPS=${REPS:-5}
for arg in $(cat /proc/cmdline); do
	case $arg in
	pf.kiters=*) KITERS=${arg#pf.kiters=} ;;
	pf.uiters=*) UITERS=${arg#pf.uiters=} ;;
	pf.reps=*) REPS=${arg#pf.reps=} ;;
	esac
done
rc=0

# Without -x, probe_paths leaves out its extended cases (on unpatched 6.12
# kprobe_ftrace_post_join leaves a half-unregistered kprobe that oopses the
# kernel when the test module is unloaded; make check runs them on the
# patched kernel).  kprobe_int3_boostable_state is not run either:
# unpatched 6.12 does not boost on PREEMPTION (nor mark boosted probes),
# which is what the series changes.  Bench lines are printed as they come,
# so that a crash still leaves the rows before it.
if [ -x /kselftest/kprobes/probe_paths ]; then
	(cd /kselftest/kprobes &&
	 ./probe_paths -n "$KITERS" -u "$UITERS" -r "$REPS" -m 5000 \
		-s kprobe_int3_boostable_state) 2>&1 |
		tee /tmp/probe_paths.out |
		sed -n -e 's/^# bench: /PF-BENCH /p' -e 's/^# bench-info: /PF-BENCH-INFO /p'
	grep -q '^not ok' /tmp/probe_paths.out && rc=1
	cat /tmp/probe_paths.out
fi

# A counting BPF program on every probe path (bench/bpf/pfbpf), with the
# workloads of tools/testing/selftests/bpf's bench trig-*: what bpftrace,
# libbpf tools and agents pay per hit.
if [ -x /bpf/pfbpf ]; then
	(cd /bpf && ./pfbpf -n "$KITERS" -r "$REPS") 2>&1 |
		tee /tmp/pfbpf.out |
		sed -n -e 's/^# bench: /PF-BENCH /p' -e 's/^# bench-state: /PF-BENCH-STATE /p'
	grep -q '^not ok' /tmp/pfbpf.out && rc=1
	cat /tmp/pfbpf.out
fi

echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/tracing_on
echo 1 > /proc/sys/debug/kprobes-optimization

kprofile() { # event -> "hits missed"
	awk -v e="$1" '$1 == e { print $2, $3 }' $T/kprobe_profile
}

# row NAME ITERS GROUP/EVENT PROFILEFN DEFINITION: a tracefs kprobe on getpid()'s path
row() {
	name=$1 n=$2 ev=$3 prof=$4 def=$5
	file=$T/kprobe_events
	base=$($P -r "$REPS" -g "$n" | cut -d' ' -f1)
	if ! echo "$def" >> $file; then
		echo "PF-BENCH-ERROR $name cannot add '$def'"
		rc=1
		return
	fi
	echo 1 > $T/events/$ev/enable
	[ -n "$SETTLE" ] && $SETTLE
	st=$(grep -h "$PROBED_SYM" /sys/kernel/debug/kprobes/list 2>/dev/null | head -1)
	set -- $($prof ${ev#*/})
	h0=$1
	set -- $($P -r "$REPS" -g "$n")
	with=$1 sd=$2
	set -- $($prof ${ev#*/})
	hits=$(($1 - h0)) missed=$2
	echo 0 > $T/events/$ev/enable
	echo "-:$ev" >> $file
	echo 0 > $T/trace
	cost=$(awk -v a="$with" -v b="$base" 'BEGIN { printf "%.1f", a - b }')
	echo "PF-BENCH $name $base $with $cost $sd $hits $((n * REPS)) $missed"
	[ -n "$st" ] && echo "PF-BENCH-STATE $name $st"
	if [ "$hits" -lt $((n * REPS)) ] || [ "$missed" != 0 ]; then
		echo "PF-BENCH-ERROR $name hits=$hits expected=$((n * REPS)) missed=$missed"
		rc=1
	fi
}

settle() { # wait for the optimizer to optimize (or not) the new probe
	for i in $(seq 50); do
		grep -q "OPTIMIZED" /sys/kernel/debug/kprobes/list && return
		sleep 0.1
	done
}

# The INT3/optimized kprobe target: the first offset into __task_pid_nr_ns
# (on getpid's path) at which a kprobe gets optimized.
SYM=__task_pid_nr_ns
OFF=
for off in $(seq 5 80); do
	echo "p:pfscan/s $SYM+$off" >> $T/kprobe_events 2>/dev/null || continue
	echo 1 > $T/events/pfscan/s/enable
	# the optimizer runs a few jiffies later, after an RCU-tasks grace period
	for i in $(seq 50); do
		opt=$(grep -c "$SYM+$(printf 0x%x $off) .*OPTIMIZED" /sys/kernel/debug/kprobes/list)
		[ "$opt" -gt 0 ] && break
		sleep 0.1
	done
	echo 0 > $T/events/pfscan/s/enable
	echo "-:pfscan/s" >> $T/kprobe_events
	if [ "$opt" -gt 0 ]; then OFF=$off; break; fi
done
echo "PF-BENCH-INFO optprobe target $SYM+$OFF"

PROBED_SYM=__x64_sys_getpid SETTLE=
row getpid_kprobe_ftrace $KITERS pf/kpf kprofile "p:pf/kpf __x64_sys_getpid"
# The same on a site the function tracer hooks too (the kprobe on
# __x64_sys_getpid is at __do_sys_getpid's ftrace site; the tracer is
# filtered to that one function and records it): the baseline includes
# the function tracer, the row is what the kprobe event adds.
if echo __do_sys_getpid > $T/set_ftrace_filter &&
   echo function > $T/current_tracer; then
	row getpid_kprobe_ftrace_shared $KITERS pf/kps kprofile "p:pf/kps __x64_sys_getpid"
else
	echo "PF-BENCH-ERROR getpid_kprobe_ftrace_shared no function tracer on __do_sys_getpid"
	rc=1
fi
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
if [ -n "$OFF" ]; then
	PROBED_SYM=$SYM SETTLE=settle
	row getpid_kprobe_opt $KITERS pf/kpo kprofile "p:pf/kpo $SYM+$OFF"
	echo 0 > /proc/sys/debug/kprobes-optimization
	row getpid_kprobe_int3 $KITERS pf/kpi kprofile "p:pf/kpi $SYM+$OFF"
	echo 1 > /proc/sys/debug/kprobes-optimization
else
	echo "PF-BENCH-ERROR getpid_kprobe_opt no optimizable offset in $SYM"
	rc=1
fi
PROBED_SYM=__x64_sys_getpid SETTLE=
row getpid_kretprobe $KITERS pf/krp kprofile "r:pf/krp __x64_sys_getpid"

# Return-instance allocations per uretprobe hit (kmem tracepoints), from
# the uretprobe selftest's last case: a child making 100000 hits.
if [ -x /kselftest/kprobes/uretprobe_instances ]; then
	(cd /kselftest/kprobes && ./uretprobe_instances -m 100000) \
		> /tmp/uretprobe_instances.out 2>&1
	grep -E '^# uretprobe_million|^(not )?ok' /tmp/uretprobe_instances.out
	sed -n 's/^# bench-info: /PF-BENCH-INFO /p' /tmp/uretprobe_instances.out
fi

# Registering and unregistering 300 boostable INT3 kprobes, and the slowest
# static_branch_enable()+disable() meanwhile (kprobe_stress's latency case;
# its limit is the selftest's business, not the benchmark's).
if [ -x /kselftest/kprobes/kprobe_stress ]; then
	(cd /kselftest/kprobes && ./kprobe_stress -t 0 -l 10 -m 600000) \
		> /tmp/kprobe_stress.out 2>&1
	grep -E '^# kprobe_slot_latency|^(not )?ok' /tmp/kprobe_stress.out
	sed -n 's/^# bench-info: /PF-BENCH-INFO /p' /tmp/kprobe_stress.out
fi
exit $rc
