#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=check: the correctness tests.  KUnit's test_kprobes ran at boot;
# here ftracetest's probe cases, the tree's kprobes kselftests and the BPF
# and perf consumers' checks run.  Each block is framed by PF-BEGIN/PF-END
# so the host can parse its (K)TAP.
rc=0
# pf.only=NAME[,NAME...] on the kernel command line: only these kselftest
# programs (and pfbpf, perf)
only=
for arg in $(cat /proc/cmdline); do
	case $arg in
	pf.only=*) only=" $(echo "${arg#pf.only=}" | tr , ' ') " ;;
	esac
done

# A kmemleak kernel (make check-debug): forget what boot left behind, so
# that the scan after the tests reports what they leaked.
kmemleak=/sys/kernel/debug/kmemleak
if [ -w "$kmemleak" ]; then
	echo scan > "$kmemleak"
	echo clear > "$kmemleak"
fi

# pf.mode=kselftest (guest/kselftest.sh): only the kselftests
if [ -z "$PF_KSELFTEST_ONLY" ]; then
	echo "PF-BEGIN ftracetest"
	cd /ftrace || exit 1
	# The cases that cover kprobes, kretprobes, uprobes and dynamic events,
	# and the function tracer's (the series changes the ftrace list function
	# and the ops a kprobe shares a site with) except on a debug kernel: there
	# the function graph tracer, with KASAN under TCG, stalls RCU for over a
	# minute (seen in test.d/ftrace/fgraph-multi.tc, on unmodified 6.12.117
	# too).  Cases listed in
	# ftracetest.skip (test file | reason) are not run.
	dirs="test.d/kprobe test.d/dynevent"
	if [ -w "$kmemleak" ]; then
		echo "test.d/ftrace not run on this debug kernel (RCU stalls under TCG)"
	else
		dirs="$dirs test.d/ftrace"
	fi
	cases=
	for t in $(for d in $dirs; do echo $d/*.tc; done); do
		reason=$(grep "^$t *|" /root/ftracetest.skip 2>/dev/null | cut -d'|' -f2-)
		if [ -n "$reason" ]; then
			echo "PF-SKIP ftracetest: $(sed -n 's/^# description: //p' $t) |$reason"
			continue
		fi
		cases="$cases $t"
	done
	./ftracetest -K $cases 2>&1
	echo "PF-END ftracetest rc=$?"

	# The kernel's x86 trap selftests (the series changes the INT3 and #DB
	# handlers), each as a one-case TAP section: its exit status is the
	# verdict.  config/x86-selftests.xfail lists those that fail under QEMU TCG
	# on the base kernel too.
	for t in /x86-selftests/*_64; do
		[ -x "$t" ] || continue
		n=${t##*/}
		echo "PF-BEGIN x86:$n"
		(cd /tmp && timeout 300 "$t" > /tmp/x86-selftest.out 2>&1)
		st=$?
		sed 's/^/# /' /tmp/x86-selftest.out
		echo "1..1"
		if [ "$st" -eq 0 ]; then
			echo "ok 1 $n"
		else
			echo "not ok 1 $n # exit status $st"
		fi
		echo "PF-END x86:$n rc=0"
	done
fi

# The series' kselftests through the standard runner, as a distribution
# runs them: run_kselftest.sh (per-test timeout from kprobes/settings; the
# initramfs's /usr/bin/timeout takes GNU's --foreground), one section per
# program; then the extended ones as "make run_extended_tests" runs them
# (runner.sh's run_many, probe_paths with -x).
ksft=/kselftest
if [ -f $ksft/kselftest-list.txt ]; then
	# the extended programs: installed (TEST_GEN_PROGS_EXTENDED), not listed
	extended=
	for f in $ksft/kprobes/*; do
		# (X run by a listed X.sh, as uprobe_emulated_32, is not one)
		[ -f "$f" ] && [ -x "$f" ] && ! grep -qx "kprobes:${f##*/}" $ksft/kselftest-list.txt &&
			! grep -qx "kprobes:${f##*/}.sh" $ksft/kselftest-list.txt &&
			extended="$extended ${f##*/}"
	done
	export KSELFTEST_PROBE_PATHS_ARGS=-x
	over=
	# a debug (KASAN, lockdep, kmemleak) kernel is several times slower:
	# fewer iterations, the same checks, three times the timeout
	if [ -w "$kmemleak" ]; then
		t=$(sed -n 's/^timeout=//p' $ksft/kprobes/settings)
		over="-o $((${t:-45} * 3))"
		KSELFTEST_PROBE_PATHS_ARGS="-x -n 1000 -u 500 -r 3 -m 200"
		export KSELFTEST_URETPROBE_INSTANCES_ARGS="-m 100000"
		export KSELFTEST_KPROBE_STRESS_ARGS="-l 5 -m 2000"
		export KSELFTEST_KPROBE_MANY_ARGS="-n 2000"
	fi
	for test in $(sed -n 's/^kprobes://p' $ksft/kselftest-list.txt) $extended; do
		case "$only" in ''|*" $test "*) ;; *) continue ;; esac
		echo "PF-BEGIN kselftest-kprobes:$test"
		if grep -qx "kprobes:$test" $ksft/kselftest-list.txt; then
			$ksft/run_kselftest.sh $over -t kprobes:$test 2>&1
		else
			(BASE_DIR=$ksft; . $ksft/kselftest/runner.sh
			 [ -n "$over" ] && kselftest_override_timeout=${over#-o }
			 cd $ksft/kprobes && run_many ./$test) 2>&1
		fi
		echo "PF-END kselftest-kprobes:$test rc=$?"
	done
fi

# BPF and perf as probe consumers, the way most probe hits on a
# distribution kernel come: a counting BPF program on every probe path
# (bench/bpf/pfbpf: exact hit counts, no missed hit on kprobe links), and
# perf probe/stat/record -g on user probes (guest/perf.sh).
if [ -z "$PF_KSELFTEST_ONLY" ]; then
	case "$only" in ''|*" pfbpf "*)
		echo "PF-BEGIN bpf:pfbpf"
		(cd /bpf && ./pfbpf -n 2000 -r 2) 2>&1
		echo "PF-END bpf:pfbpf rc=$?" ;;
	esac
	case "$only" in ''|*" perf "*)
		echo "PF-BEGIN perf:uprobe"
		sh /root/perf.sh 2>&1
		echo "PF-END perf:uprobe rc=$?" ;;
	esac
fi

# kmemleak only reports objects older than 5 s: scan, wait, scan again.  A
# leak shows on the console as "kmemleak: N new suspected memory leaks".
if [ -w "$kmemleak" ]; then
	echo "PF-BEGIN kmemleak"
	echo "TAP version 13"
	echo "1..1"
	echo scan > "$kmemleak"
	sleep 6
	echo scan > "$kmemleak"
	cat "$kmemleak"
	n=$(grep -c '^unreferenced object' "$kmemleak")
	if [ "$n" -eq 0 ]; then
		echo "ok 1 kmemleak: no unreferenced object after the tests"
	else
		echo "not ok 1 kmemleak: $n unreferenced objects after the tests"
	fi
	echo "PF-END kmemleak"
fi
exit $rc
