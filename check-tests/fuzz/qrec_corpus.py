#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a recording directory the QEMU recorder plugin wrote into one input
of check-tests/fuzz/fuzz_qrec.c (its container format is described there).

    qrec_corpus.py DIR OUT [MAX_SLOTS]

A records file keeps its header (stamped by the harness, which names it
after a small pid) and its records up to the first of type 0; a table
keeps its counted slots only (the first MAX_SLOTS of them, if given), its
slot count made theirs.  Process ids
become 100, 101, ... in the order of the names.
"""
import os
import re
import struct
import sys

HEADER = 112        # sizeof(struct qrec_header)
PAGE = 4096
TABLE = 64          # sizeof(struct qrec_table)
SLOT = 40           # sizeof(struct qrec_trace)


def records(data):
    off = PAGE
    while off + 8 <= len(data):
        typ, size = struct.unpack_from('<II', data, off)
        if not typ:
            break
        off += size
    return data[PAGE:off]


def table(data, most):
    cap = struct.unpack_from('<Q', data, 16)[0]
    slots = [data[TABLE + k * SLOT:TABLE + (k + 1) * SLOT] for k in range(cap)]
    used = [s for s in slots if struct.unpack_from('<Q', s, 24)[0]][:most]
    head = bytearray(data[:TABLE])
    struct.pack_into('<Q', head, 16, len(used))
    return bytes(head) + b''.join(used)


def main():
    src, out = sys.argv[1], sys.argv[2]
    most = int(sys.argv[3]) if len(sys.argv) > 3 else None
    names = sorted(n for n in os.listdir(src)
                   if re.fullmatch(r'\d+\.\d+\.\d+\.q(rec|tab)', n))
    pids = sorted({int(n.split('.')[0]) for n in names})
    blob, exact = b'', 0
    for n in names:
        pid, image, seq, ext = n.split('.')
        with open(os.path.join(src, n), 'rb') as f:
            data = f.read()
        if ext == 'qrec':
            exact = struct.unpack_from('<I', data, 16)[0]
            kind, content = 2 | 4, data[:HEADER] + records(data)
        else:
            kind, content = 1 | 2, table(data, most)
        if len(content) > 0xffff:
            sys.exit('%s: %d bytes, more than an entry holds' % (n, len(content)))
        blob += struct.pack('<BBBBH', kind, pids.index(int(pid)), int(image),
                            int(seq), len(content)) + content
    with open(out, 'wb') as f:
        f.write(bytes([exact]) + blob)


if __name__ == '__main__':
    main()
