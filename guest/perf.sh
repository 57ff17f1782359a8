#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The perf checks (a TAP section of make check): perf as a uprobe consumer,
# the way "perf probe -x" users reach it (tracefs uprobe events, opened by
# perf stat and perf record as tracepoint perf events).  The workload is
# "/bpf/pfbpf -w N": main() -> pfb_work() -> N x pfb_outer(), which calls
# pfb_nop5() (a nop5 site: jump-optimized on the patched kernel) and
# pfb_nop(); it is built with frame pointers.
#   1 perf probe adds pfb_outer%return, pfb_nop5, pfb_nop5%return
#   2 perf stat: each event counts exactly N (a hit lost or doubled on the
#     single-stepped, emulated or optimized path fails)
#   3 perf record -g (R calls): one sample per hit of each event; every
#     callchain reaches main (pfb_outer's pending uretprobe puts the return
#     trampoline in the pfb_nop5 and pfb_nop5%return stacks: perf must show
#     the real return address); no frame is left in [uprobes]
#   4 the pfb_nop5 samples' ip is pfb_nop5+0x0 (the optimized path hands
#     the consumer the registers of the probed site)
#   5 uprobe_profile counts the same hits, and no missed return (the
#     series' fourth column)
#   6 perf probe -d removes them all
W=/bpf/pfbpf
N=${PERF_CALLS:-2000}
# perf record: fewer calls and a larger buffer, so that perf reads every
# sample in time (with 2000 calls and the default buffer it lost about a
# sixth of them under -icount: LOST records, not lost hits)
R=${PERF_RECORD_CALLS:-500}
D=/tmp/perf-check
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $*"; }

echo "TAP version 13"
if ! [ -x /usr/bin/perf ] || ! [ -x $W ]; then
	echo "1..0 # SKIP no perf or no $W in this initramfs"
	exit 0
fi
echo "1..6"
rm -rf $D; mkdir -p $D; cd $D || exit 1
uopt=/proc/sys/debug/uprobes-optimization
uopt_was=$(cat $uopt 2>/dev/null)
[ -n "$uopt_was" ] && echo 1 > $uopt
if [ -n "$uopt_was" ]; then
	echo "# jump-optimized uprobes: on"
else
	echo "# jump-optimized uprobes: not in this kernel"
fi

EVS="probe_pfbpf:pfb_outer__return probe_pfbpf:pfb_nop5 probe_pfbpf:pfb_nop5__return"
if perf probe -q -x $W -a pfb_outer%return -a pfb_nop5 -a pfb_nop5%return > probe.out 2>&1; then
	ok "perf probe -x: pfb_outer%return, pfb_nop5, pfb_nop5%return"
else
	sed 's/^/# /' probe.out
	nok "perf probe -x: pfb_outer%return, pfb_nop5, pfb_nop5%return"
fi

evopt=$(echo $EVS | tr ' ' ',')
if perf stat -x, -e "$evopt" -o stat.out -- $W -w $N > /dev/null 2>&1; then
	sed 's/^/# /' stat.out
	bad=0
	for e in $EVS; do
		c=$(awk -F, -v e="$e" '$3 == e { print $1 }' stat.out)
		[ "$c" = "$N" ] || { echo "# $e: counted '${c}', expected $N"; bad=1; }
	done
	[ $bad -eq 0 ] && ok "perf stat: every event counted $N" ||
		nok "perf stat: counts differ from the $N calls"
else
	sed 's/^/# /' stat.out
	nok "perf stat failed"
fi

if perf record -q -g -m 2M -o rec.data -e "$evopt" -- $W -w $R > rec.out 2>&1 &&
   perf script -i rec.data -F event,ip,sym,symoff,dso > script.out 2>&1; then
	# records are separated by blank lines: the event line, then the
	# callchain, one frame per line
	awk -v want="$EVS" -v n="$R" '
	BEGIN { split(want, w, " "); for (i in w) need[w[i]] = 1 }
	function flush() {
		if (ev == "") return
		cnt[ev]++
		if (!main) nomain[ev]++
		if (upr) inupr[ev]++
		if (ev == "probe_pfbpf:pfb_nop5" && first != "pfb_nop5+0x0") badip++
		ev = ""
	}
	/^$/ { flush(); next }
	ev == "" { for (i = 1; i <= NF; i++) if ($i ~ /^probe_pfbpf:/) { ev = $i; sub(/:$/, "", ev) }
		   main = 0; upr = 0; first = ""; next }
	{ if (first == "") first = $2
	  if ($2 ~ /^main\+/) main = 1
	  if ($0 ~ /\[uprobes\]/) upr = 1 }
	END {
		flush()
		for (e in need) {
			printf "# %s: %d samples, %d without main, %d with a [uprobes] frame\n",
				e, cnt[e], nomain[e], inupr[e]
			if (cnt[e] != n) bad = 1
			if (nomain[e] || inupr[e]) chain = 1
		}
		printf "# pfb_nop5 samples whose ip is not pfb_nop5: %d\n", badip
		print (bad ? "counts" : "ok") > "/tmp/perf-check/v.count"
		print (chain ? "chain" : "ok") > "/tmp/perf-check/v.chain"
		print (badip ? "ip" : "ok") > "/tmp/perf-check/v.ip"
	}' script.out
	[ "$(cat v.count)" = ok ] && [ "$(cat v.chain)" = ok ] &&
		ok "perf record -g: $R samples per event, every callchain reaches main, none in [uprobes]" ||
		{ sed -n '1,40p' script.out | sed 's/^/# /'
		  nok "perf record -g: samples or callchains wrong"; }
	[ "$(cat v.ip)" = ok ] && ok "perf record: the pfb_nop5 samples are at pfb_nop5+0x0" ||
		nok "perf record: pfb_nop5 samples elsewhere"
else
	sed 's/^/# /' rec.out script.out 2>/dev/null | head -20
	nok "perf record -g failed"
	nok "perf record: pfb_nop5 samples (not recorded)"
fi

# the kernel's own count of the same events: uprobe_profile's hits (the
# two runs above) and, on the patched kernel, its missed-return column
awk -v n=$((N + R)) -v w=$W '$1 == w && $2 ~ /^pfb_/ {
	print "# uprobe_profile: " $0
	if ($3 != n || (NF >= 4 && $4 != 0)) bad = 1; seen++ }
	END { exit !(seen == 3 && !bad) }' /sys/kernel/tracing/uprobe_profile &&
	ok "uprobe_profile: $((N + R)) hits per event, no missed return" ||
	nok "uprobe_profile: hits or missed returns differ"

perf probe -q -d 'probe_pfbpf:*' > del.out 2>&1
if grep -q probe_pfbpf /sys/kernel/tracing/uprobe_events; then
	sed 's/^/# /' del.out
	nok "perf probe -d: events left in uprobe_events"
else
	ok "perf probe -d: every event removed"
fi
[ -n "$uopt_was" ] && echo "$uopt_was" > $uopt
echo "# Totals: pass:$((n - fails)) fail:$fails"
[ $fails -eq 0 ]
