#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Expected outputs of `blockrange script` from perf 6.1, for check-cli.

  perf_oracle.py prepare OUTDIR WORKLOAD

writes, for every good variant of gen_perfdata.py and for files perf 6.1
records here (software events: no PMU is needed), into OUTDIR:

  NAME.data     the input
  NAME.brstack  expected `blockrange script` output (perf script -F ip,brstack)
  NAME.events   expected `blockrange script --dump-events` (S and R lines),
                perf script's sample and side-band lines normalised
  manifest      one line per input: NAME BRSTACK-SOURCE EVENTS-SOURCE
  skipped       one line per input that could not be made, with the reason

Sources: "perf" (perf 6.1 on this file), "twin:NAME" (perf 6.1 on a file
of the same content that perf can read: the little-endian twin of every
byte-swapped variant, since perf 6.1 does not swap MMAP2 prot/flags and
cannot read swapped pipe files with compressed records; see
gen_perfdata.TWINS for the others), "none" (no samples with branch stacks:
the expected output is an error).

perf prints the call chain (symbolised) instead of the IP unless -G: the
expected output is that of -G (blockrange script prints the single-line
form whatever the sample holds).
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_perfdata  # noqa: E402

PERF = os.environ.get('PERF', 'perf')
FIELDS = ['pid', 'tid', 'cpu', 'time', 'ip', 'period', 'event']


def perf(args, out=None):
    r = subprocess.run([PERF] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return r.returncode, r.stdout.decode('latin-1'), r.stderr.decode('latin-1')


def is_pipe(path):
    with open(path, 'rb') as f:
        head = f.read(16)
    return head[8:16] in (b'\x10' + b'\0' * 7, b'\0' * 7 + b'\x10')


def brstack(path):
    rc, out, err = perf(['script', '--force', '-G', '-F', 'ip,brstack', '-i', path])
    if 'unknown events!' in err and out:
        rc = 0      # kernel record types it does not know: skipped
    if rc or 'failed' in err or "Couldn't" in err:
        return None, err.strip().splitlines()[:1]
    if 'BRANCH_STACK' in err or 'branch' in err.lower() and 'not' in err.lower():
        return '', None
    lines = out.splitlines(True)
    return ''.join(lines), None


SAMPLE = re.compile(r'^\s*(?:(-?\d+)/(-?\d+)\s+)?(?:\[(\d+)\]\s+)?(?:(\d+)\.(\d+):\s+)?(.*)$')


def events(path):
    fields = list(FIELDS)
    while True:
        rc, out, err = perf(['script', '--force', '-G', '--ns', '--show-mmap-events',
                             '--show-task-events', '--show-lost-events', '-F',
                             ','.join(fields), '-i', path])
        if 'unknown events!' in err and out:
            rc = 0
        m = re.search(r"do not have (\w+) attribute set", err)
        if rc and m:
            drop = {'TID': ['pid', 'tid'], 'CPU': ['cpu'], 'TIME': ['time'],
                    'PERIOD': ['period'], 'IP': ['ip']}.get(m.group(1))
            if not drop or not all(d in fields for d in drop):
                return None, err.strip().splitlines()[:1]
            fields = [f for f in fields if f not in drop]
            continue
        if rc or 'failed' in err or "Couldn't" in err:
            return None, err.strip().splitlines()[:1]
        break
    # perf drops a field for every event when one event lacks it
    res = [] if 'cpu' in fields else ['# no-cpu']
    for ln in out.splitlines():
        m = SAMPLE.match(ln)
        pid, tid, cpu, sec, ns, rest = m.groups()
        if 'pid' not in fields:
            pid = tid = '-1'
        t = str(int(sec) * 1000000000 + int(ns)) if sec is not None else '-'
        if rest.startswith('PERF_RECORD_'):
            res.append('R ' + rest[len('PERF_RECORD_'):].rstrip())
            continue
        if ln.startswith('\t') or not rest.strip():
            continue
        sm = re.match(r'^(?:(\d+)\s+)?(.+?):\s+([0-9a-f]+)(?:\s.*)?$', rest)
        if not sm:
            return None, ['cannot parse perf line: ' + ln]
        period, ev, ip = sm.groups()
        if 'period' not in fields:
            period = '1'
        line = 'S %s/%s' % (pid, tid)
        if cpu is not None:
            line += ' [%s]' % cpu
        res.append('%s %s %s %s %s' % (line, t, period, ev.strip(), ip))
    return ''.join(x + '\n' for x in res), None


def expect(outdir, name, twin=None):
    path = os.path.join(outdir, name + '.data')
    src = os.path.join(outdir, twin + '.data') if twin else path
    label = 'twin:' + twin if twin else 'perf'
    b, why = brstack(src)
    if b is None:
        return name, None, 'perf script -F ip,brstack: %s' % (why or ['failed'])[0]
    e, why = events(src)
    if e is None:
        return name, None, 'perf script (events): %s' % (why or ['failed'])[0]
    with open(os.path.join(outdir, name + '.brstack'), 'w') as f:
        f.write(b)
    with open(os.path.join(outdir, name + '.events'), 'w') as f:
        f.write(e)
    return name, '%s %s %s' % (name, label if b else 'none', label), None


RECORDINGS = [
    # name, perf record arguments (before --), pipe
    ('rec-file', ['-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-pipe', ['-e', 'cpu-clock', '-c', '50000'], True),
    ('rec-zstd', ['-z', '-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-zstd-pipe', ['-z', '-e', 'cpu-clock', '-c', '50000'], True),
    ('rec-events', ['-e', 'cpu-clock,task-clock', '-c', '50000'], False),
    ('rec-group', ['-e', '{cpu-clock,task-clock}:S', '-c', '50000'], False),
    ('rec-cpu', ['--sample-cpu', '-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-g', ['-g', '-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-dwarf', ['--call-graph', 'dwarf,1024', '-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-regs', ['--user-regs=ax,bx,sp,ip', '--intr-regs=ax,bx', '-e', 'cpu-clock',
                  '-c', '50000'], False),
    ('rec-addr', ['-d', '-W', '--phys-data', '--data-page-size', '--code-page-size',
                  '-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-T', ['-T', '-R', '-e', 'cpu-clock', '-c', '50000'], False),
    ('rec-s', ['-s', '-e', 'cpu-clock', '-c', '50000'], False),
]


def record(outdir, name, args, pipe, workload):
    path = os.path.join(outdir, name + '.data')
    out = ['-o', '-'] if pipe else ['-o', path]
    cmd = [PERF, 'record', '-q'] + out + args + ['--'] + workload
    with open(path, 'wb') if pipe else open(os.devnull, 'wb') as so:
        r = subprocess.run(cmd, stdout=so, stderr=subprocess.PIPE, timeout=120)
    if r.returncode or not os.path.getsize(path):
        return 'perf record %s: %s' % (' '.join(args), r.stderr.decode(
            'latin-1').strip().splitlines()[:1])
    return None


def prepare(outdir, workload):
    os.makedirs(outdir, exist_ok=True)
    names = gen_perfdata.good_names()
    for n in names:
        with open(os.path.join(outdir, n + '.data'), 'wb') as f:
            f.write(gen_perfdata.good(n))
    skipped = []
    jobs = []
    # perf record mostly waits: its own pool
    with ThreadPoolExecutor(max_workers=2) as ex, ThreadPoolExecutor(max_workers=6) as rx:
        for n in names:
            scen, mode, order = n.rsplit('-', 2)
            twin = None
            if scen in gen_perfdata.TWINS or order == 'be':
                twin = '%s-%s-le' % (gen_perfdata.TWINS.get(scen, scen), mode)
                if twin not in names:
                    with open(os.path.join(outdir, twin + '.data'), 'wb') as f:
                        f.write(gen_perfdata.good(twin))
            jobs.append(ex.submit(expect, outdir, n, twin))
        recs = [(n, rx.submit(record, outdir, n, a, p, workload))
                for n, a, p in RECORDINGS]
        recorded = []
        for n, fut in recs:
            why = fut.result()
            if why:
                skipped.append('%s %s' % (n, why))
            else:
                recorded.append(n)
        # perf inject of the plain recording (file and pipe output)
        src = os.path.join(outdir, 'rec-file.data')
        if 'rec-file' in recorded:
            for n, o in (('rec-inject', ['-o', os.path.join(outdir, 'rec-inject.data')]),):
                r = subprocess.run([PERF, 'inject', '-i', src] + o,
                                   stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
                if r.returncode:
                    skipped.append('%s perf inject: %s' % (n, r.stderr.decode()[:80]))
                else:
                    recorded.append(n)
            with open(os.path.join(outdir, 'rec-inject-pipe.data'), 'wb') as f:
                r = subprocess.run([PERF, 'inject', '-i', src, '-o', '-'], stdout=f,
                                   stderr=subprocess.PIPE)
            if r.returncode:
                skipped.append('rec-inject-pipe perf inject: %s' % r.stderr.decode()[:80])
            else:
                recorded.append('rec-inject-pipe')
        for n in recorded:
            jobs.append(ex.submit(expect, outdir, n))
        manifest = []
        for j in jobs:
            n, line, why = j.result()
            if line:
                manifest.append(line)
            else:
                skipped.append('%s %s' % (n, why))
    with open(os.path.join(outdir, 'manifest'), 'w') as f:
        f.write(''.join(x + '\n' for x in manifest))
    with open(os.path.join(outdir, 'skipped'), 'w') as f:
        f.write(''.join(x + '\n' for x in skipped))
    for s in skipped:
        print('perf_oracle: SKIP %s' % s)
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == 'prepare':
        return prepare(argv[2], argv[3:])
    sys.stderr.write(__doc__)
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
