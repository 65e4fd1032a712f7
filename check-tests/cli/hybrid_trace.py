#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hybrid samples (a call stack with each branch stack) from a full trace.

  hybrid_trace.py TRACE PERIOD DEPTH > OUT

TRACE is what `blockrange record --engine=ptrace --format=perfscript
--depth 0 --period 1` writes: the mmap lines, then one line per taken
branch (the newest entry first).  This replays the branches in order with a
stack of return addresses (a call pushes the address after it, a return
pops down to its target; calls and returns are told by objdump's
disassembly of the files mapped) and writes, every PERIOD branches, a
sample in the text `perf script -F ip,brstack` prints for perf record -g
-b: the call stack innermost first (the last branch's target, then the
return addresses), one tab-indented address a line, and the last DEPTH
branches, newest first, on the line after.

The stacks are what the branches imply, not what a machine unwinds: a
longjmp leaves the frames it skips on the stack until a return pops past
them.  That is on purpose: the samples are input for a differential test
of two readers, which must agree on any input.
"""
import re
import subprocess
import sys


def segments(path):
    """(file offset, vaddr, filesz) of each PT_LOAD of @path."""
    out = subprocess.run(['readelf', '-lW', path], capture_output=True,
                         text=True, check=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD':
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def instructions(path):
    """{vaddr: (kind, size)}: kind 'call', 'ret' or None."""
    out = subprocess.run(['objdump', '-d', '-w', '--no-show-raw-insn', path],
                         capture_output=True, text=True, check=True).stdout
    addrs, kinds = [], {}
    for line in out.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\t(\S+)', line)
        if not m:
            continue
        a = int(m.group(1), 16)
        addrs.append(a)
        mn = m.group(2)
        kinds[a] = 'call' if mn.startswith('call') else \
            'ret' if mn.startswith('ret') else None
    insns = {}
    for i, a in enumerate(addrs):
        nxt = addrs[i + 1] if i + 1 < len(addrs) else a + 1
        insns[a] = (kinds[a], nxt - a)
    return insns


class Image:
    def __init__(self):
        self.maps = []          # (start, len, pgoff, path)
        self.files = {}

    def lookup(self, addr):
        """(kind, size) of the instruction at runtime address @addr."""
        for start, ln, pgoff, path in self.maps:
            if not (start <= addr < start + ln and path.startswith('/')):
                continue
            if path not in self.files:
                self.files[path] = (segments(path), instructions(path))
            segs, insns = self.files[path]
            off = addr - start + pgoff
            for foff, vaddr, fsz in segs:
                if foff <= off < foff + fsz:
                    return insns.get(off - foff + vaddr, (None, 0))
        return None, 0


def main(argv):
    trace, period, depth = argv[1], int(argv[2]), int(argv[3])
    img, branches, mmaps = Image(), [], []
    mmap_re = re.compile(r'\[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (0x[0-9a-f]+|0) '
                         r'.*\]: \S+ (.*)$')
    for line in open(trace):
        if line.startswith('PERF_RECORD_MMAP2'):
            m = mmap_re.search(line)
            img.maps.append((int(m.group(1), 16), int(m.group(2), 16),
                             int(m.group(3), 16), m.group(4)))
            mmaps.append(line)
            continue
        f = line.split()
        if len(f) >= 2 and '/' in f[1]:
            src, dst = f[1].split('/')[:2]
            branches.append((int(src, 16), int(dst, 16)))
    out = [''.join(mmaps)]
    stack = []
    for i, (src, dst) in enumerate(branches):
        kind, size = img.lookup(src)
        if kind == 'call':
            stack.append(src + size)
        elif kind == 'ret':
            while stack and stack[-1] != dst:
                stack.pop()
            if stack:
                stack.pop()
        if i % period != period - 1 or i + 1 < depth:
            continue
        frames = [dst] + stack[::-1]
        lbr = branches[i - depth + 1:i + 1][::-1]
        out.append('\n' + ''.join('\t%16x\n' % a for a in frames) + ' ' +
                   '  '.join('0x%x/0x%x/P/-/-/0' % e for e in lbr) + ' \n')
    sys.stdout.write(''.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
