#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perf 6.1's `perf annotate --stdio` as the oracle of `blockrange annotate`.

annotate_oracle.py BLOCKRANGE PDRELOC WORKDIR PERFDATA DSO...

For each DSO: perf annotates a copy of PERFDATA in which that DSO runs at
its ELF addresses (pdreloc; perf 6.1 keys its blocks by runtime address and
looks them up by ELF address, so it shows branch comments only for code
that runs at its ELF addresses), and blockrange annotates PERFDATA itself.
For every symbol perf shows in the DSO, every instruction must carry the
same "# +NN.NN%" / "-NN.NN% (p:NN.NN%)" comment in both (an instruction
blockrange does not show must have none in perf either).  Whole runs are compared (perf's `-s SYM` would
count only the blocks of samples whose IP is in SYM).  Without prediction
flags perf prints p:0.00% where blockrange prints p:n/a.

Prints one summary line; exits 1 on any difference.
"""
import re
import subprocess
import sys

LINE = re.compile(r'^\s*[0-9.]+\s+:\s+([0-9a-f]+):\s(.*)$')
HEAD = re.compile(r'Disassembly of (\S+) for ')


def sections(text):
    """[(dso, {addr: comment})] per annotated symbol, in order."""
    out = []
    cur = None
    for line in text.splitlines():
        m = HEAD.search(line)
        if m and line.lstrip().startswith('Percent'):
            cur = (m.group(1), {})
            out.append(cur)
            continue
        m = LINE.match(line)
        if not m or cur is None:
            continue
        rest = m.group(2)
        comment = rest.split('\t#', 1)[1].strip() if '\t#' in rest else ''
        cur[1][int(m.group(1), 16)] = comment.replace('p:0.00%', 'p:n/a')
    return out


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode:
        sys.exit('annotate_oracle: %s failed (%d): %s' %
                 (' '.join(cmd), p.returncode, p.stderr[-2000:]))
    return p.stdout


def main():
    br, pdreloc, work, data = sys.argv[1:5]
    dsos = sys.argv[5:]
    ours = sections(run([br, 'annotate', '-i', data, '--color=never',
                         '--no-pager']))
    total_syms = total_insns = total_comments = 0
    bad = []
    for dso in dsos:
        rel = '%s/reloc-%s.data' % (work, dso)
        run([pdreloc, data, rel, dso])
        perf = sections(run(['perf', 'annotate', '--stdio', '-i', rel]))
        shown = {}
        for n, s in ours:
            if n == dso:
                shown.update(s)
        syms = 0
        for name, insns in perf:
            if name != dso or not insns:
                continue
            syms += 1
            for addr, comment in sorted(insns.items()):
                total_insns += 1
                total_comments += bool(comment)
                got = shown.get(addr)
                if got is None and comment:
                    bad.append('%s 0x%x: perf "%s", blockrange does not show it'
                               % (dso, addr, comment))
                elif got is not None and got != comment:
                    bad.append('%s 0x%x: perf "%s", blockrange "%s"'
                               % (dso, addr, comment, got))
        if not syms:
            bad.append('%s: perf annotated no symbol of it' % dso)
        total_syms += syms
    for b in bad[:20]:
        print('annotate_oracle: ' + b)
    print('annotate_oracle: %d DSOs, %d symbols, %d instructions, %d branch comments: %s'
          % (len(dsos), total_syms, total_insns, total_comments,
             '%d differences' % len(bad) if bad else 'identical to perf 6.1'))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
