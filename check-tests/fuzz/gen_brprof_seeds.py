#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds of the .brprof merge harness (fuzz_brprof.c): pairs of small
profiles in the format of userspace/cli/input/brprof.h, written as the
harness reads its input: a control byte (3: the harness makes both halves'
sizes and checksums right, so they are left 0 here), the first half's length
(u16, little endian), then both halves.

    gen_brprof_seeds.py DIR
"""
import struct
import sys

NR_STATS = 19
# fields per record and key fields, per section (brprof.h)
FIELDS = [4, 2, 4, 3, 3, 4, 4]


def pad8(b):
    return b + b'\0' * (-len(b) % 8)


def dso(path, build_id=b'', flags=2, base=0x400000, samples=10, psamples=4,
        sections=None):
    sections = sections or {}
    nr = [len(sections.get(s, [])) for s in range(7)]
    head = struct.pack('<IBBH', len(path), len(build_id), flags, 0)
    head += build_id.ljust(20, b'\0') + struct.pack('<I', 0)
    head += struct.pack('<QQQ', base, samples, psamples)
    head += struct.pack('<7Q', *nr)
    body = head + pad8(path)
    for s in range(7):
        for rec in sections.get(s, []):
            assert len(rec) == FIELDS[s]
            body += struct.pack('<%dQ' % FIELDS[s], *rec)
    return body


def profile(dsos, event=b'cycles', stats=None, flags=0):
    stats = stats or [i + 1 for i in range(NR_STATS)]
    body = struct.pack('<II', NR_STATS, len(event))
    body += struct.pack('<%dQ' % NR_STATS, *stats) + pad8(event)
    for d in dsos:
        body += d
    head = b'\x7fBRPROF\n' + struct.pack('<II', 1, 64)
    head += struct.pack('<QQ', len(body), 0)
    head += struct.pack('<II', len(dsos), flags) + b'\0' * 16
    head += struct.pack('<Q', 0)
    assert len(head) == 64
    return head + body


def pair(a, b, ctl=3):
    return bytes([ctl]) + struct.pack('<H', len(a)) + a + b


def main():
    out = sys.argv[1]
    bid = bytes(range(1, 21))
    full = {0: [(0x401000, 0x401010, 0, 5), (0x401000, 0x401010, 1, 3),
                (0x401020, 0x401030, 2, 7)],
            1: [(0x401004, 9), (0x401024, 2)],
            2: [(0x401010, 0x401020, 6, 1)],
            3: [(0x401000, 0x401010, 4)],
            4: [(0x401010, 0x401020, 4)],
            5: [(0x401010, 0x401020, 6, 2)],
            6: [(0x401020, 0x401030, 3, 1)]}
    other = {0: [(0x401000, 0x401010, 0, 2), (0x401040, 0x401050, 0, 1)],
             1: [(0x401004, 1)],
             2: [(0x401010, 0x401020, 2, 2)]}
    a = profile([dso(b'/usr/bin/a', bid, 2 | 4 | 8, sections=full),
                 dso(b'/lib/libc.so.6', flags=2, sections=other)])
    b = profile([dso(b'/opt/a', bid, 2, base=0x3ff000, sections=other),
                 dso(b'[kernel.kallsyms]', flags=1 | 2, sections=other)],
                event=b'branches')
    seeds = {
        'same-dso-by-build-id': pair(a, b),
        'self': pair(a, a),
        'disjoint': pair(profile([dso(b'/x', sections=other)]),
                         profile([dso(b'/y', sections=full)])),
        'empty-profiles': pair(profile([], event=b''), profile([], flags=2)),
        'exact-and-mixed': pair(profile([], flags=2), profile([], flags=3)),
        'sum-overflows': pair(
            profile([dso(b'/o', sections={1: [(0x10, 2**64 - 2)]})]),
            profile([dso(b'/o', sections={1: [(0x10, 5)]})])),
        'sum-overflows-odd-path': pair(
            profile([dso(b'/o\n\x01', sections={1: [(0x10, 2**64 - 2)]})]),
            profile([dso(b'/o\n\x01', sections={1: [(0x10, 5)]})])),
        'stat-overflows': pair(
            profile([], stats=[2**64 - 1] * NR_STATS),
            profile([], stats=[1] * NR_STATS)),
        'bad-second': pair(a, a[:100], ctl=1),
        'no-checksums': pair(a, b, ctl=0),
    }
    for name, data in seeds.items():
        with open('%s/%s' % (out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
