#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=mt: uprobe hits per second of 1 and 2 threads of one process on
# one probe (bench/mt/uprobe_mt), for a run with two vCPUs in parallel:
#   VM_TCG=multi scripts/run-vm base|patched mt LOG wall [mt.reps=N]
# mt.sites=SITE[/SITE...] (e.g. mt.sites=push,ret) runs only those sites.
# Each line is "uprobe_mt: site=... threads=N unprobed X calls/s probed Y
# hits/s ..."; the host compares the 2-thread/1-thread ratios.
reps=3
for arg in $(cat /proc/cmdline); do
	case $arg in
	mt.reps=*) reps=${arg#mt.reps=} ;;
	mt.sites=*) MT_SITES=$(echo "${arg#mt.sites=}" | tr / ' ') ;;
	esac
done
rc=0
# push,ret: a uretprobe on the push function (a return instance per hit)
for site in ${MT_SITES:-push store push,ret}; do
	i=0
	while [ $i -lt "$reps" ]; do
		for t in 1 2; do
			case $site in
			*,ret) /bench/uprobe_mt -t $t -s 3 -k ${site%,ret} -r || rc=1 ;;
			*) /bench/uprobe_mt -t $t -s 3 -k $site || rc=1 ;;
			esac
		done
		i=$((i + 1))
	done
done
dmesg | grep -E "BUG|WARNING|Oops|Call Trace" && rc=1
exit $rc
