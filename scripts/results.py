#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn VM console logs into test results and benchmark tables.

  results.py check LOG          TAP lines for every case found in LOG (KUnit,
                                ftracetest, kselftest, splat scan), then
                                "# totals: P F S" as the last line
  results.py bench OUTDIR NAME=LOG...
                                per-row per-hit costs from PF-BENCH lines of
                                the logs (base/patched x icount/wall); writes
                                OUTDIR/bench.json, bench.tsv, bench.svg/png and
                                prints the side-by-side table
  results.py bpfst BASELOG PATCHEDLOG
                                test_progs results (make check-bpf) of the
                                base and the patched kernel side by side;
                                fails if the patched kernel fails (or does
                                not run) a test or subtest the base passes
"""
import json
import os
import re
import subprocess
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)\s*-?\s*(.*?)\s*$')
SPLAT = re.compile(
    r'^(BUG:|WARNING:|Oops|Kernel panic|kernel BUG|general protection fault|'
    r'UBSAN:|KASAN:|INFO: (possible|task .* blocked|rcu)|rcu: INFO|'
    r'.*kmemleak: \d+ new suspected memory leaks|Unable to handle|'
    r'WARNING: suspicious RCU usage|.*stack-protector:|'
    r'.*double fault|.*int3: 0000)')


def lines_of(path):
    with open(path, errors='replace') as f:
        for raw in f:
            yield TS.sub('', raw.rstrip('\n').replace('\r', ''))


def classify(status, desc):
    d = desc.upper()
    if '# SKIP' in d:
        return 'skip'
    if '# XFAIL' in d:
        return 'pass'
    return 'pass' if status == 'ok' else 'fail'


def known_failures():
    """Failures of the base kernel too: config/ftracetest.xfail has
    '<case description> | <reason>' lines, config/x86-selftests.xfail
    '<program> | <reason>' lines."""
    xf = {}
    for fname, key in (('ftracetest.xfail', lambda d: 'ftracetest: ' + d),
                       ('x86-selftests.xfail', lambda d: f'x86:{d}: {d}')):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                            'config', fname)
        if not os.path.exists(path):
            continue
        for ln in open(path):
            if ln.strip() and not ln.startswith('#') and '|' in ln:
                desc, why = ln.split('|', 1)
                xf[key(desc.strip())] = why.strip()
    return xf


def expected_sections():
    """config/check-sections: the PF-BEGIN sections a check run must have."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                        'config', 'check-sections')
    with open(path) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith('#')]


def check(log):
    out = []          # (result, name)
    lines = list(lines_of(log))
    manifest = expected_sections()
    xfail = known_failures()
    seen = set()
    # 1. KUnit (boot time, before the PF-MODE line)
    kunit_suites = []
    for ln in lines:
        if ln.startswith('PF-MODE'):
            break
        m = RESULT.match(ln)
        if not m:
            continue
        indent, status, _, desc = m.groups()
        name = desc.split(' # ')[0]
        if indent:
            out.append((classify(status, desc), 'kunit: ' + name))
        else:
            kunit_suites.append(name)
            if status != 'ok':
                out.append(('fail', 'kunit suite: ' + name))
    if 'kprobes_test' not in kunit_suites:
        out.append(('fail', 'kunit: kprobes_test suite did not run'))
    # 2. (K)TAP sections framed by PF-BEGIN/PF-END: ftracetest (KTAP), the
    #    x86 trap selftests, and each kselftest program run by the kselftest
    #    runner (run_kselftest.sh): the program's TAP nested behind "# ",
    #    the runner's verdict line "ok 1 selftests: kprobes: NAME" after it
    sec = None
    inner, plan, verdict = [], None, None
    for ln in lines:
        if ln.startswith('PF-BEGIN '):
            sec, inner, plan, verdict = ln.split()[1], [], None, None
            seen.add(sec)
            continue
        if sec and ln.startswith('PF-END '):
            m = re.search(r'rc=(\d+)', ln)
            rc = int(m.group(1)) if m else -1
            if sec.startswith('kselftest'):
                # the runner's verdict is the exit status
                if verdict is None:
                    out.append(('fail', f'{sec}: no verdict from the kselftest runner'))
                    rc = 0
                else:
                    rc = verdict
            out.extend(inner)
            if not inner and not (sec.startswith('kselftest') and rc == 4):
                out.append(('fail', sec + ': no test reported'))
            if plan is not None and len(inner) < plan:
                out.append(('fail', f'{sec}: only {len(inner)} of {plan} planned cases reported'))
            if sec.startswith('kselftest') and rc not in (0, 4) and \
                    not any(r == 'fail' for r, _ in inner):
                out.append(('fail', f'{sec}: exit status {rc}' +
                            (' (killed by SIGTERM: the runner\'s timeout?)' if rc == 143 else '')))
            # ftracetest, and the BPF and perf consumers' checks: a
            # non-zero exit status is a failure even without a failed case
            if (sec == 'ftracetest' or sec.startswith(('bpf:', 'perf:'))) and \
                    rc not in (0, -1) and not any(r == 'fail' for r, _ in inner):
                out.append(('fail', f'{sec}: exit status {rc} with no failed case'))
            if sec.startswith(('kselftest', 'bpf:', 'perf:')) and sec in manifest and \
                    not any(r == 'pass' for r, _ in inner):
                out.append(('fail', f'{sec}: no case passed'))
            if sec.startswith('kselftest') and rc == 4 and not inner:
                out.append(('skip', f'{sec}: skipped as a whole'))
            sec = None
            continue
        if not sec:
            continue
        if sec.startswith('kselftest'):
            m = re.match(r'^(not ok|ok) \d+ selftests: \S+: \S+(.*)$', ln)
            if m:
                tail = m.group(2)
                if m.group(1) == 'ok' and not re.search(r'exit=|TIMEOUT', tail):
                    # (an "ok" with an exit status is a "not ok" whose
                    # start a console line split off)
                    verdict = 4 if '# SKIP' in tail else 0
                else:
                    e = re.search(r'exit=(\d+)', tail)
                    verdict = int(e.group(1)) if e else 1
                    if 'TIMEOUT' in tail:
                        out.append(('fail', f'{sec}: {tail.strip("# ")}'))
                continue
            if not ln.startswith('# '):
                continue
            ln = ln[2:]
        m = re.match(r'^1\.\.(\d+)$', ln)
        if m:
            plan = int(m.group(1))
            continue
        m = RESULT.match(ln)
        if m and not m.group(1):
            desc = m.group(4)
            inner.append((classify(m.group(2), desc),
                          sec + ': ' + desc.split(' # ')[0]))
    if sec:
        out.extend(inner)
        out.append(('fail', sec + ': section did not finish (guest crashed or hung)'))
    # every section of the manifest ran (a guest that skipped one says so)
    for s in manifest:
        if s not in seen:
            out.append(('fail', f'{s}: section missing from the console'))
    # cases the guest did not run (config/ftracetest.skip)
    for ln in lines:
        if ln.startswith('PF-SKIP '):
            name, _, why = ln[len('PF-SKIP '):].partition('|')
            out.append(('skip', f'{name.strip()} # SKIP not run: {why.strip()}'))
    # known failures of the base kernel with this config
    for i, (res, name) in enumerate(out):
        if res == 'fail' and name in xfail:
            out[i] = ('skip', f'{name} # SKIP known failure: {xfail[name]}')
    # 3. splats anywhere on the console
    splats = [ln for ln in lines if SPLAT.match(ln)]
    out.append(('fail' if splats else 'pass', 'no kernel splat on the console'))
    for s in splats[:20]:
        print('#   splat: ' + s)
    # 4. the guest's own verdict
    done = [ln for ln in lines if ln.startswith('PF-DONE')]
    if not done:
        out.append(('fail', 'guest reported completion'))
    p = f = s = 0
    for n, (res, name) in enumerate(out, 1):
        if res == 'pass':
            p += 1
            print(f'ok {n} {name}')
        elif res == 'skip':
            s += 1
            print(f'ok {n} {name}' + ('' if '# SKIP' in name else ' # SKIP'))
        else:
            f += 1
            print(f'not ok {n} {name}')
    print(f'# totals: {p} {f} {s}')
    return 0 if f == 0 else 1


def bench_rows(log):
    rows, order = {}, []
    for ln in lines_of(log):
        if ln.startswith('PF-BENCH '):
            f = ln.split()
            name = f[1]
            rows[name] = dict(base=float(f[2]), probed=float(f[3]),
                              cost=float(f[4]), sd=float(f[5]),
                              hits=int(f[6]), expected=int(f[7]),
                              missed=f[8])
            order.append(name)
        elif ln.startswith('PF-BENCH-STATE '):
            f = ln.split(None, 2)
            if f[1] in rows:
                rows[f[1]]['state'] = f[2]
    return rows, order


def bench(outdir, specs):
    data, order = {}, []
    for spec in specs:
        key, log = spec.split('=', 1)
        rows, o = bench_rows(log) if os.path.exists(log) else ({}, [])
        data[key] = rows
        for r in o:
            if r not in order:
                order.append(r)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'bench.json'), 'w') as f:
        json.dump({'rows': order, 'runs': data,
                   'unit': {'icount': 'guest instructions per hit',
                            'wall': 'ns per hit (TCG wall clock, noisy)'}},
                  f, indent=1)

    def cost(run, row):
        r = data.get(run, {}).get(row)
        return r['cost'] if r else None

    def fmt(v, w=9):
        return f'{v:{w}.0f}' if v is not None else f'{"-":>{w}}'

    def ratio(b, p):
        return f'{p / b:6.2f}' if b and p is not None and b > 0 else '     -'

    hdr = (f'{"probe path (per hit)":<26} | {"base":>9} {"patched":>9} {"ratio":>6}'
           f' | {"base":>9} {"patched":>9} {"ratio":>6}')
    print(f'{"":<26} | {"icount: guest instructions":^26} | {"wall ns (TCG, noisy)":^26}')
    print(hdr)
    print('-' * len(hdr))
    tsv = ['row\tbase_icount\tpatched_icount\tratio_icount\tbase_wall_ns\tpatched_wall_ns\tratio_wall']
    for row in order:
        bi, pi = cost('base-icount', row), cost('patched-icount', row)
        bw, pw = cost('base-wall', row), cost('patched-wall', row)
        print(f'{row:<26} | {fmt(bi)} {fmt(pi)} {ratio(bi, pi)} | {fmt(bw)} {fmt(pw)} {ratio(bw, pw)}')
        tsv.append('\t'.join(str(x) if x is not None else '' for x in
                             (row, bi, pi, ratio(bi, pi).strip(), bw, pw, ratio(bw, pw).strip())))
    with open(os.path.join(outdir, 'bench.tsv'), 'w') as f:
        f.write('\n'.join(tsv) + '\n')
    chart(outdir, order, data)
    bad = [(k, r) for k, rows in data.items() for r, v in rows.items()
           if v['hits'] < v['expected'] or v['missed'] != '0']
    for k, r in bad:
        print(f'# WARNING: {k} {r}: hits {data[k][r]["hits"]} < {data[k][r]["expected"]} '
              f'or missed {data[k][r]["missed"]}')
    # the patched kernel must give every row, with every hit and no miss
    failed = [f'{k} {r}' for k, r in bad if k.startswith('patched')]
    for k in data:
        if k.startswith('patched'):
            failed += [f'{k} {r}: no number' for r in order if r not in data[k]]
    if not order:
        failed.append('no benchmark row at all')
    for f_ in failed:
        print(f'# FAILED: {f_}')
    return 1 if failed else 0


def chart(outdir, order, data):
    dat = os.path.join(outdir, 'bench.dat')
    with open(dat, 'w') as f:
        for row in order:
            vals = [data.get(k, {}).get(row, {}).get('cost') for k in
                    ('base-icount', 'patched-icount')]
            f.write(f'{row} ' + ' '.join(str(v) if v is not None else '0' for v in vals) + '\n')
    gp = f'''
set terminal svg size 1000,720 dynamic font "sans,11"
set output "{outdir}/bench.svg"
set multiplot layout 2,1 title "probe-fastpath: cost per probe hit, base 6.12 vs patched (QEMU -icount shift=0)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top left
set lmargin 12
set rmargin 6
set xtics rotate by -30 noenhanced font ",9"
set logscale y
set ylabel "guest instructions per hit"
set yrange [10:*]
plot "{dat}" using 2:xtic(1) title "base (6.12)" lc rgb "#999999", \\
     "" using 3 title "patched" lc rgb "#2266cc"
unset logscale y
set yrange [0:1.2]
set ylabel "patched / base"
set ytics 0.25
plot "{dat}" using ($2 > 0 ? $3/$2 : 1/0):xtic(1) title "ratio (lower is better)" lc rgb "#2266cc", \\
     1 with lines dt 2 lc rgb "#444444" notitle
unset multiplot
'''
    gp_png = gp.replace('set terminal svg size 1000,720 dynamic font "sans,11"',
                        'set terminal pngcairo size 1000,720 font "sans,10"').replace(
        f'set output "{outdir}/bench.svg"', f'set output "{outdir}/bench.png"')
    for script in (gp, gp_png):
        try:
            subprocess.run(['gnuplot'], input=script, text=True, check=True,
                           stderr=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError):
            # pngcairo may be missing from gnuplot-nox; the SVG comes first
            pass


TEST_PROGS = re.compile(r'^#(\d+)(?:/(\d+))?\s+(\S+):(OK|FAIL|SKIP)\b')


def bpfst_results(log):
    """{section: {test[/subtest]: OK|FAIL|SKIP}} from test_progs output."""
    res, sec = {}, None
    for ln in lines_of(log):
        if ln.startswith('PF-BEGIN '):
            sec = ln.split()[1]
            res[sec] = {}
        elif ln.startswith('PF-END '):
            sec = None
        elif sec:
            m = TEST_PROGS.match(ln)
            if m:
                res[sec][m.group(3)] = m.group(4)
    return res


def bpfst(baselog, patchedlog):
    base = bpfst_results(baselog) if os.path.exists(baselog) else {}
    patched = bpfst_results(patchedlog) if os.path.exists(patchedlog) else {}
    b = base.get('bpfst:default', {})
    cols = [('6.12.117', b)] + [(('+series' if k == 'bpfst:default' else '+series, ' +
                                  k.split(':')[1]), v) for k, v in sorted(patched.items())]
    names = sorted(set().union(*[v.keys() for _, v in cols]),
                   key=lambda n: (n.split('/')[0], '/' in n, n))
    w = max([len(n) for n in names] + [20])
    print(f'{"test_progs test/subtest":<{w}} | ' + ' | '.join(f'{c:>22}' for c, _ in cols))
    print('-' * (w + 25 * len(cols)))
    failed = []
    for n in names:
        print(f'{n:<{w}} | ' + ' | '.join(f'{v.get(n, "-"):>22}' for _, v in cols))
        for c, v in cols[1:]:
            if b.get(n) == 'OK' and v.get(n) != 'OK':
                failed.append(f'{n} ({c}: {v.get(n, "not run")}, 6.12.117: OK)')
    if not b:
        failed.append('no test_progs result from the base kernel')
    if 'bpfst:default' not in patched or not patched['bpfst:default']:
        failed.append('no test_progs result from the patched kernel')
    for c, v in cols:
        vals = list(v.values())
        print(f'# {c}: {vals.count("OK")} OK, {vals.count("FAIL")} FAIL, {vals.count("SKIP")} SKIP')
    for f in failed:
        print(f'# FAILED: {f}')
    return 1 if failed else 0


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'check':
        sys.exit(check(sys.argv[2]))
    if len(sys.argv) == 4 and sys.argv[1] == 'bpfst':
        sys.exit(bpfst(sys.argv[2], sys.argv[3]))
    if len(sys.argv) >= 4 and sys.argv[1] == 'bench':
        sys.exit(bench(sys.argv[2], sys.argv[3:]))
    print(__doc__)
    sys.exit(2)
