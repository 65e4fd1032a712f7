#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Synthesize perf.data files for the reader's tests.

An independent implementation of the writer side, from the kernel's
tools/perf/Documentation/perf.data-file-format.txt and <linux/perf_event.h>
only.  Every variant exists in file and pipe mode and in both byte orders
("be": written as a big-endian machine would, so byte-swapped here).

  gen_perfdata.py list                 names of the good variants
  gen_perfdata.py good NAME OUT        write one good variant
  gen_perfdata.py bad DIR              write the hostile corpus (DIR/NAME.data)
  gen_perfdata.py big OUT MB           a large file mode file for throughput

Good variant names are SCENARIO-MODE-ORDER, e.g. allbits-pipe-be.

The writer itself is perffile.py; the good variants are pd_good.py, the
hostile corpus pd_bad.py.
"""
import struct
import sys

from perffile import FINISHED_ROUND, PerfData, rec  # noqa: F401
from pd_good import TWINS, base_attr, entries, good, good_names, sample, sidebands  # noqa: F401
from pd_bad import bad_cases, write_bad  # noqa: F401


def main(argv):
    if argv[1:2] == ['list']:
        print('\n'.join(good_names()))
    elif argv[1:2] == ['good'] and len(argv) == 4:
        with open(argv[3], 'wb') as f:
            f.write(good(argv[2]))
    elif argv[1:2] == ['bad'] and len(argv) == 3:
        write_bad(argv[2])
    elif argv[1:2] == ['bad-list']:
        for name, (_, what) in sorted(bad_cases().items()):
            print('%s\t%s' % (name, what))
    elif argv[1:2] == ['big'] and len(argv) == 4:
        write_big(argv[2], int(argv[3]))
    else:
        sys.stderr.write(__doc__)
        return 1
    return 0


def write_big(path, mb):
    """Times in rounds of 64 samples, increasing: a sorted file."""
    pd = PerfData()
    a = base_attr()
    pd.attrs = [a]
    pd.event_desc = False
    sidebands(pd, a, 1)
    w = pd.w
    per_round = 256
    tmpl = [sample(w, a, {'ip': 0x401000 + i, 'pid': 100, 'tid': 100, 'time': 0,
                          'br': entries(32, 0x401000, i)}) for i in range(per_round)]
    rsz = sum(len(x) for x in tmpl) + 8
    nrounds = mb * 1024 * 1024 // rsz + 1
    # header with the data size patched in after writing
    head = pd.bytes()
    data_off = struct.unpack('<Q', head[40:48])[0]
    side = head[data_off:data_off + struct.unpack('<Q', head[48:56])[0]]
    with open(path, 'wb') as f:
        f.write(head[:data_off])
        f.write(side)
        t = 10
        time_off = 8 + 8 + 8        # header, ip, pid/tid
        for r in range(nrounds):
            buf = bytearray()
            for x in tmpl:
                b = bytearray(x)
                b[time_off:time_off + 8] = struct.pack('<Q', t)
                t += 1
                buf += b
            buf += rec(w, FINISHED_ROUND, 0, b'')
            f.write(buf)
        size = f.tell() - data_off
        f.seek(48)
        f.write(struct.pack('<Q', size))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
