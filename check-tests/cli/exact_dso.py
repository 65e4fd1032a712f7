#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Multi-DSO exactness: with a full trace, coverage = single-step count.

exact_dso.py ANNOTATE_JSON COUNTS DSO...

ANNOTATE_JSON: `blockrange annotate --format=json` of a recording made with
`record --depth 0 --period 1 --counts COUNTS` (every taken branch, each
sample holding the branches since the previous one, so every block is
counted exactly once).  COUNTS: "PATH 0xVADDR COUNT" per executed
instruction.

Every executed instruction of every DSO must have coverage equal to its
count, except the straight-line runs before the first taken branch and
after the last one (they end or start no block): there the coverage is one
less, and there can be at most two such runs.  Conversely every
instruction with coverage was executed that often.  The DSOs named must all
have counted instructions.  Prints one summary line; exits 1 on failure.
"""
import json
import sys


def main():
    data = json.load(open(sys.argv[1]))
    want_dsos = sys.argv[3:]
    counts = {}
    for line in open(sys.argv[2]):
        path, addr, n = line.split()
        counts[(path, int(addr, 16))] = int(n)
    cov = {}
    for d in data['dsos']:
        for s in d['symbols']:
            for i in s['instructions']:
                cov[(d['path'], int(i['addr'], 16))] = (i['coverage'], i['size'])
    bad = []
    off_by_one = []
    per_dso = {}
    for (path, addr), n in counts.items():
        c = cov.get((path, addr), (0, 0))[0]
        if c == n:
            per_dso[path] = per_dso.get(path, 0) + 1
        elif c == n - 1:
            off_by_one.append((path, addr))
        else:
            bad.append('%s 0x%x: executed %d times, coverage %d'
                       % (path, addr, n, c))
    for key, (c, _) in cov.items():
        if c and key not in counts:
            bad.append('%s 0x%x: coverage %d, never executed' % (key + (c,)))
    # The off-by-one instructions: at most two runs of consecutive ones.
    runs = 0
    prev = None
    for path, addr in sorted(off_by_one):
        size = cov.get((path, addr), (0, 1))[1] or 1
        if not prev or prev[0] != path or prev[1] != addr:
            runs += 1
        prev = (path, addr + size)
    if runs > 2:
        bad.append('%d runs of instructions covered once less than executed '
                   '(at most 2: before the first and after the last branch)'
                   % runs)
    for d in want_dsos:
        if not any(p.endswith('/' + d) and n for p, n in per_dso.items()):
            bad.append('%s: no instruction with its exact count' % d)
    for b in bad[:20]:
        print('exact_dso: ' + b)
    print('exact_dso: %d instructions executed in %d DSOs (%s): %d exact, '
          '%d in the first and last straight runs; %s'
          % (len(counts), len(per_dso),
             ', '.join('%s %d' % (p.rsplit('/', 1)[-1], n)
                       for p, n in sorted(per_dso.items())),
             sum(per_dso.values()), len(off_by_one),
             '%d failures' % len(bad) if bad else 'every count matches'))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
