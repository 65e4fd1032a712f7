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
"""
import ctypes
import ctypes.util
import struct
import sys

# PERF_RECORD_* (kernel) and perf's own record types
MMAP, LOST, COMM, EXIT, THROTTLE, UNTHROTTLE, FORK, READ, SAMPLE, MMAP2 = \
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10
AUX, ITRACE_START, LOST_SAMPLES, SWITCH = 11, 12, 13, 14
HEADER_ATTR, HEADER_EVENT_TYPE, HEADER_TRACING_DATA, HEADER_BUILD_ID = \
    64, 65, 66, 67
FINISHED_ROUND, ID_INDEX, AUXTRACE_INFO, AUXTRACE = 68, 69, 70, 71
EVENT_UPDATE, TIME_CONV, HEADER_FEATURE, COMPRESSED, FINISHED_INIT = \
    78, 79, 80, 81, 82

# PERF_SAMPLE_*
S_IP, S_TID, S_TIME, S_ADDR, S_READ, S_CALLCHAIN, S_ID, S_CPU = \
    1, 2, 4, 8, 16, 32, 64, 128
S_PERIOD, S_STREAM_ID, S_RAW, S_BRANCH_STACK = 256, 512, 1024, 2048
S_REGS_USER, S_STACK_USER, S_WEIGHT, S_DATA_SRC = 1 << 12, 1 << 13, 1 << 14, 1 << 15
S_IDENTIFIER, S_TRANSACTION, S_REGS_INTR, S_PHYS_ADDR = \
    1 << 16, 1 << 17, 1 << 18, 1 << 19
S_AUX, S_CGROUP, S_DATA_PAGE_SIZE, S_CODE_PAGE_SIZE, S_WEIGHT_STRUCT = \
    1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24

# read_format
F_TOTAL_TIME_ENABLED, F_TOTAL_TIME_RUNNING, F_ID, F_GROUP, F_LOST = \
    1, 2, 4, 8, 16

# branch_sample_type
B_USER, B_KERNEL, B_ANY = 1, 2, 8
B_TYPE_SAVE, B_HW_INDEX, B_PRIV_SAVE = 1 << 16, 1 << 17, 1 << 18
B_COUNTERS = 1 << 19        # perf 6.8: a u64 per entry after the entries

MISC_KERNEL, MISC_USER = 1, 2
MISC_MMAP_DATA = MISC_COMM_EXEC = 1 << 13
MISC_MMAP_BUILD_ID = 1 << 14
MISC_BUILD_ID_SIZE = 1 << 15

FEAT_BUILD_ID, FEAT_EVENT_DESC, FEAT_COMPRESSED = 2, 12, 27

# attr flag bits (little-endian bitfield positions)
A_DISABLED, A_EXCLUDE_USER, A_EXCLUDE_KERNEL, A_EXCLUDE_HV = 0, 4, 5, 6
A_MMAP, A_COMM, A_TASK, A_PRECISE, A_SAMPLE_ID_ALL = 8, 9, 13, 15, 18
A_EXCLUDE_HOST, A_EXCLUDE_GUEST, A_MMAP2, A_COMM_EXEC = 19, 20, 23, 24

PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, PERF_TYPE_HW_CACHE, PERF_TYPE_RAW = \
    0, 1, 3, 4
PERF_TYPE_BREAKPOINT = 5


def flagword(bits, swap):
    """A u64 bitfield word: bits is {lsb_offset: (width, value)}."""
    v = 0
    for off, (w, val) in bits.items():
        assert val < (1 << w)
        if swap:
            # big-endian bitfields are allocated from the most significant bit
            v |= val << (64 - off - w)
        else:
            v |= val << off
    return v


class W:
    def __init__(self, swap):
        self.swap = swap
        self.e = '>' if swap else '<'

    def p(self, fmt, *v):
        return struct.pack(self.e + fmt, *v)

    def u64(self, *v):
        return self.p('%dQ' % len(v), *v)

    def u32(self, *v):
        return self.p('%dI' % len(v), *(x & 0xffffffff for x in v))


def pad8(b):
    return b + b'\0' * (-len(b) % 8)


def cstr(s, align=8):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % align)


class Attr:
    def __init__(self, type=PERF_TYPE_HARDWARE, config=0, sample_type=0,
                 read_format=0, branch_sample_type=0, flags=None,
                 regs_user=0, regs_intr=0, size=128, ids=(), name=None,
                 period=4000, bp_type=0, bp_addr=0, size_field=None):
        self.type, self.config = type, config
        self.sample_type, self.read_format = sample_type, read_format
        self.branch_sample_type = branch_sample_type
        self.flags = dict(flags or {})
        self.regs_user, self.regs_intr = regs_user, regs_intr
        self.size, self.ids, self.name = size, list(ids), name
        self.period = period
        self.bp_type, self.bp_addr = bp_type, bp_addr
        self.size_field = size_field    # attr.size as written (None: the size)

    def pack(self, w, size=None):
        size = size or self.size
        fl = {k: (2, v) if k == A_PRECISE else (1, v)
              for k, v in self.flags.items()}
        sf = size if self.size_field is None else self.size_field
        b = w.u32(self.type, sf) + w.u64(self.config, self.period,
                                           self.sample_type, self.read_format)
        b += w.u64(flagword(fl, w.swap))
        b += w.u32(0, self.bp_type) + w.u64(self.bp_addr, 0)  # 48..72
        b += w.u64(self.branch_sample_type)                # 72..80
        b += w.u64(self.regs_user) + w.u32(0) + w.p('i', 0)    # 80..96
        b += w.u64(self.regs_intr)                         # 96..104
        b += w.u32(0) + w.p('HH', 0, 0)                    # 104..112
        b += w.u32(0, 0)                                   # 112..120
        b += w.u64(0)                                      # 120..128
        if size <= len(b):
            return b[:size]
        return b + b'\0' * (size - len(b))

    def sid_all(self):
        return self.flags.get(A_SAMPLE_ID_ALL, 0)


def popcount(x):
    return bin(x).count('1')


def branch_flags(e, swap):
    return flagword({0: (1, e.get('mispred', 0)), 1: (1, e.get('pred', 0)),
                     2: (1, e.get('in_tx', 0)), 3: (1, e.get('abort', 0)),
                     4: (16, e.get('cycles', 0)), 20: (4, e.get('type', 0)),
                     24: (2, e.get('spec', 0)), 26: (4, e.get('new_type', 0)),
                     30: (3, e.get('priv', 0))}, swap)


def rec(w, type, misc, body):
    body = pad8(body) if type not in (COMPRESSED,) else body
    size = 8 + len(body)
    assert size < 65536, size
    return w.u32(type) + w.p('HH', misc, size) + body


def sample_id(w, a, s):
    """struct sample_id (sample_id_all) of a non-sample record."""
    if not a.sid_all():
        return b''
    st, b = a.sample_type, b''
    if st & S_TID:
        b += w.u32(s.get('pid', 0), s.get('tid', 0))
    if st & S_TIME:
        b += w.u64(s.get('time', 0))
    if st & S_ID:
        b += w.u64(s.get('id', a.ids[0] if a.ids else 0))
    if st & S_STREAM_ID:
        b += w.u64(7)
    if st & S_CPU:
        b += w.u32(s.get('cpu', 0), 0)
    if st & S_IDENTIFIER:
        b += w.u64(s.get('id', a.ids[0] if a.ids else 0))
    return b


def read_values(w, a, s):
    rf = a.read_format
    # (value, id): values grow from sample to sample (perf takes deltas)
    t = s.get('time', 0)
    vals = s.get('read', [(100 + t, a.ids[0] if a.ids else 0),
                          (200 + 2 * t, a.ids[-1] if a.ids else 0)])
    if rf & F_GROUP:
        b = w.u64(len(vals))
        if rf & F_TOTAL_TIME_ENABLED:
            b += w.u64(11)
        if rf & F_TOTAL_TIME_RUNNING:
            b += w.u64(12)
        for v, i in vals:
            b += w.u64(v)
            if rf & F_ID:
                b += w.u64(i)
            if rf & F_LOST:
                b += w.u64(0)
        return b
    b = w.u64(vals[0][0])
    if rf & F_TOTAL_TIME_ENABLED:
        b += w.u64(11)
    if rf & F_TOTAL_TIME_RUNNING:
        b += w.u64(12)
    if rf & F_ID:
        b += w.u64(vals[0][1])
    if rf & F_LOST:
        b += w.u64(0)
    return b


def sample(w, a, s):
    st, b = a.sample_type, b''
    ident = s.get('id', a.ids[0] if a.ids else 0)
    if st & S_IDENTIFIER:
        b += w.u64(ident)
    if st & S_IP:
        b += w.u64(s['ip'])
    if st & S_TID:
        b += w.u32(s.get('pid', 1), s.get('tid', 1))
    if st & S_TIME:
        b += w.u64(s['time'])
    if st & S_ADDR:
        b += w.u64(0xdead0000)
    if st & S_ID:
        b += w.u64(ident)
    if st & S_STREAM_ID:
        b += w.u64(9)
    if st & S_CPU:
        b += w.u32(s.get('cpu', 0), 0)
    if st & S_PERIOD:
        b += w.u64(s.get('period', 1000))
    if st & S_READ:
        b += read_values(w, a, s)
    if st & S_CALLCHAIN:
        cc = s.get('callchain', [0xfffffffffffffe00, s.get('ip', 0), 0x401000])
        b += w.u64(len(cc), *cc)
    if st & S_RAW:
        raw = s.get('raw', b'\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c')
        # u32 size + data, padded so that the next field is u64-aligned
        # (the kernel pads the data; size counts the padding)
        data = raw + b'\0' * (-(len(raw) + 4) % 8)
        b += w.u32(len(data)) + data
    if st & S_BRANCH_STACK:
        br = s.get('br', [])
        b += w.u64(len(br))
        if a.branch_sample_type & B_HW_INDEX:
            b += w.u64(s.get('hw_idx', 3))
        for e in br:
            b += w.u64(e['from'], e['to'], branch_flags(e, w.swap))
        if a.branch_sample_type & B_COUNTERS:
            b += w.u64(*[0x5555 + i for i in range(len(br))])
    if st & S_REGS_USER:
        if a.regs_user:
            b += w.u64(2) + w.u64(*range(1, popcount(a.regs_user) + 1))
        else:
            b += w.u64(0)
    if st & S_STACK_USER:
        stack = s.get('stack', b'S' * 24)
        b += w.u64(len(stack)) + stack
        if stack:
            b += w.u64(len(stack) - 8)
    if st & (S_WEIGHT | S_WEIGHT_STRUCT):
        b += w.u64(33)
    if st & S_DATA_SRC:
        b += w.u64(0x1234)
    if st & S_TRANSACTION:
        b += w.u64(0)
    if st & S_REGS_INTR:
        if a.regs_intr:
            b += w.u64(2) + w.u64(*range(1, popcount(a.regs_intr) + 1))
        else:
            b += w.u64(0)
    if st & S_PHYS_ADDR:
        b += w.u64(0x100000)
    if st & S_CGROUP:
        b += w.u64(1)
    if st & S_DATA_PAGE_SIZE:
        b += w.u64(4096)
    if st & S_CODE_PAGE_SIZE:
        b += w.u64(4096)
    if st & S_AUX:
        aux = s.get('aux', b'A' * 16)
        b += w.u64(len(aux)) + aux
    return rec(w, SAMPLE, s.get('misc', MISC_USER), b)


def mmap_rec(w, a, m):
    body = w.u32(m['pid'], m['tid']) + w.u64(m['start'], m['len'], m['pgoff'])
    body += cstr(m['path']) + sample_id(w, a, m)
    return rec(w, MMAP, m.get('misc', MISC_USER), body)


def mmap2_rec(w, a, m):
    body = w.u32(m['pid'], m['tid']) + w.u64(m['start'], m['len'], m['pgoff'])
    misc = m.get('misc', MISC_USER)
    if 'build_id' in m:
        bid = m['build_id']
        body += bytes([len(bid), 0]) + b'\0\0' + bid + b'\0' * (20 - len(bid))
        misc |= MISC_MMAP_BUILD_ID
    else:
        body += w.u32(m.get('maj', 8), m.get('min', 1)) + w.u64(m.get('ino', 1234), 0)
    body += w.u32(m.get('prot', 5), m.get('flags', 2))
    body += cstr(m['path']) + sample_id(w, a, m)
    return rec(w, MMAP2, misc, body)


def comm_rec(w, a, c):
    body = w.u32(c['pid'], c['tid']) + cstr(c['comm']) + sample_id(w, a, c)
    return rec(w, COMM, MISC_COMM_EXEC if c.get('exec') else 0, body)


def task_rec(w, a, t, type):
    body = w.u32(t['pid'], t['ppid'], t['tid'], t['ptid']) + w.u64(t['time'])
    return rec(w, type, 0, body + sample_id(w, a, t))


def lost_rec(w, a, n, s):
    return rec(w, LOST, 0, w.u64(a.ids[0] if a.ids else 0, n) + sample_id(w, a, s))


def attr_rec(w, a):
    return rec(w, HEADER_ATTR, 0, a.pack(w) + w.u64(*a.ids))


def header_string(w, s):
    b = cstr(s, 64)
    return w.u32(len(b)) + b


def build_id_entry(w, pid, bid, path, misc=MISC_USER, type=0):
    body = w.p('i', pid) + bid + b'\0' * (20 - len(bid)) + bytes([len(bid)]) + b'\0' * 3
    body += cstr(path, 64)
    return rec(w, type, misc | MISC_BUILD_ID_SIZE, body)


def event_desc(w, attrs):
    b = w.u32(len(attrs), attrs[0].size)
    for a in attrs:
        b += a.pack(w) + w.u32(len(a.ids)) + header_string(w, a.name) + w.u64(*a.ids)
    return b


_zstd = None


def zstd_compress(data, level=3):
    global _zstd
    if _zstd is None:
        _zstd = ctypes.CDLL(ctypes.util.find_library('zstd') or 'libzstd.so.1')
        _zstd.ZSTD_compressBound.restype = ctypes.c_size_t
        _zstd.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
        _zstd.ZSTD_compress.restype = ctypes.c_size_t
        _zstd.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                        ctypes.c_char_p, ctypes.c_size_t,
                                        ctypes.c_int]
    cap = _zstd.ZSTD_compressBound(len(data))
    out = ctypes.create_string_buffer(cap)
    n = _zstd.ZSTD_compress(out, cap, data, len(data), level)
    assert n < cap
    return out.raw[:n]


class PerfData:
    """Attrs, features and a list of record byte strings."""

    def __init__(self, swap=False, pipe=False):
        self.w = W(swap)
        self.pipe = pipe
        self.attrs = []
        self.recs = []          # bytes
        self.build_ids = []     # (pid, bid, path, misc)
        self.event_desc = True
        self.compressed_mmap_len = 0
        self.attr_records_in_file = False

    def add(self, b):
        self.recs.append(b)

    def finished_round(self):
        self.add(rec(self.w, FINISHED_ROUND, 0, b''))

    def compress(self, chunks):
        """Replace recs with COMPRESSED records; chunks: list of byte
        strings of records (may split a record across chunks)."""
        out = []
        for c in chunks:
            out.append(rec(self.w, COMPRESSED, 0, zstd_compress(c)))
            self.compressed_mmap_len = max(self.compressed_mmap_len, len(c) + 64)
        return out

    def bytes(self):
        w = self.w
        if self.pipe:
            out = [self.magic(), w.u64(16)]
            for a in self.attrs:
                out.append(attr_rec(w, a))
            if self.event_desc and any(a.name for a in self.attrs):
                out.append(rec(w, HEADER_FEATURE, 0,
                               w.u64(FEAT_EVENT_DESC) + event_desc(w, self.attrs)))
            if self.compressed_mmap_len:
                out.append(rec(w, HEADER_FEATURE, 0, w.u64(FEAT_COMPRESSED) +
                               w.u32(1, 1, 3, 3, self.compressed_mmap_len)))
            for pid, bid, path, misc in self.build_ids:
                out.append(build_id_entry(w, pid, bid, path, misc, HEADER_BUILD_ID))
            out += self.recs
            return b''.join(out)
        # file mode: header, attrs + ids, data, feature sections
        hdr_size = 104
        attr_size = self.attrs[0].size + 16 if self.attrs else 144
        ids = b''
        ids_off = hdr_size
        idsec = []
        for a in self.attrs:
            idsec.append((ids_off + len(ids), 8 * len(a.ids)))
            ids += w.u64(*a.ids)
        attrs_off = hdr_size + len(ids)
        attrs = b''
        if not self.attr_records_in_file:
            for a, (o, n) in zip(self.attrs, idsec):
                attrs += a.pack(w, attr_size - 16) + w.u64(o, n)
        data_off = attrs_off + len(attrs)
        data = b''.join(self.recs)
        if self.attr_records_in_file:
            data = b''.join(attr_rec(w, a) for a in self.attrs) + data
        feats = []
        if self.build_ids:
            feats.append((FEAT_BUILD_ID, b''.join(
                build_id_entry(w, pid, bid, path, misc)
                for pid, bid, path, misc in self.build_ids)))
        if self.event_desc and any(a.name for a in self.attrs):
            feats.append((FEAT_EVENT_DESC, event_desc(w, self.attrs)))
        if self.compressed_mmap_len:
            feats.append((FEAT_COMPRESSED, w.u32(1, 1, 3, 3, self.compressed_mmap_len)))
        feats.sort()
        flags = 0
        for f, _ in feats:
            flags |= 1 << f
        sec_off = data_off + len(data)
        payload_off = sec_off + 16 * len(feats)
        secs, payload = b'', b''
        for f, p in feats:
            secs += w.u64(payload_off + len(payload), len(p))
            payload += p
        hdr = self.magic() + w.u64(hdr_size, attr_size, attrs_off, len(attrs),
                                   data_off, len(data), 0, 0, flags, 0, 0, 0)
        return hdr + ids + attrs + data + secs + payload

    def magic(self):
        b = b'PERFILE2'
        return b[::-1] if self.w.swap else b


# ---------------------------------------------------------------- scenarios

BID1 = bytes(range(0x10, 0x24))          # 20 bytes
BID2 = bytes(range(0xa0, 0xb0))          # 16 bytes (a short id)


def entries(n, base, seed=0):
    out = []
    for i in range(n):
        k = (i * 7 + seed) % 5
        out.append({'from': base + 0x40 * i + 0x10, 'to': base + 0x40 * i + 0x200,
                    'pred': k % 2, 'mispred': (k + 1) % 2 if k < 3 else 0,
                    'in_tx': 1 if k == 3 else 0, 'abort': 1 if k == 4 else 0,
                    'cycles': (i * 37 + seed) % 65536})
    return out


def sidebands(pd, a, t0):
    w = pd.w
    pd.add(comm_rec(w, a, {'pid': 100, 'tid': 100, 'comm': 'prog', 'exec': 1,
                           'time': t0}))
    pd.add(mmap2_rec(w, a, {'pid': 100, 'tid': 100, 'start': 0x400000, 'len': 0x3000,
                            'pgoff': 0, 'path': '/usr/bin/prog', 'time': t0 + 1}))
    pd.add(mmap_rec(w, a, {'pid': -1, 'tid': 0, 'start': 0xffffffff81000000,
                           'len': 0x1000000, 'pgoff': 0xffffffff81000000,
                           'misc': MISC_KERNEL, 'path': '[kernel.kallsyms]_text',
                           'time': t0 + 2}))
    pd.add(task_rec(w, a, {'pid': 100, 'ppid': 100, 'tid': 101, 'ptid': 100,
                           'time': t0 + 3}, FORK))
    pd.add(comm_rec(w, a, {'pid': 100, 'tid': 101, 'comm': 'worker thread',
                           'time': t0 + 4}))


def base_attr(**kw):
    d = dict(type=PERF_TYPE_HARDWARE, config=0,
             sample_type=S_IP | S_TID | S_TIME | S_PERIOD | S_BRANCH_STACK,
             branch_sample_type=B_ANY | B_USER,
             flags={A_SAMPLE_ID_ALL: 1, A_MMAP: 1, A_COMM: 1, A_TASK: 1,
                    A_MMAP2: 1, A_COMM_EXEC: 1, A_EXCLUDE_KERNEL: 1,
                    A_EXCLUDE_HV: 1},
             ids=[11, 12], name='cycles:u')
    d.update(kw)
    return Attr(**d)


def scen_basic(pd):
    a = base_attr()
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    t = 2000
    for i in range(6):
        n = [3, 0, 16, 1, 32, 5][i]
        pd.add(sample(pd.w, a, {'ip': 0x401000 + i * 0x11, 'pid': 100,
                                'tid': 100 + i % 2, 'time': t + i * 10,
                                'period': 1000 + i, 'br': entries(n, 0x401000, i)}))
    pd.finished_round()
    pd.add(lost_rec(pd.w, a, 5, {'pid': 100, 'tid': 100, 'time': 2100}))
    pd.add(task_rec(pd.w, a, {'pid': 100, 'ppid': 100, 'tid': 101, 'ptid': 100,
                              'time': 2200}, EXIT))
    pd.finished_round()


ALL_BEFORE = (S_IDENTIFIER | S_IP | S_TID | S_TIME | S_ADDR | S_READ | S_CALLCHAIN |
              S_ID | S_STREAM_ID | S_CPU | S_PERIOD | S_RAW)
ALL_AFTER = (S_REGS_USER | S_STACK_USER | S_WEIGHT_STRUCT | S_DATA_SRC |
             S_TRANSACTION | S_REGS_INTR | S_PHYS_ADDR | S_CGROUP |
             S_DATA_PAGE_SIZE | S_CODE_PAGE_SIZE | S_AUX)


def scen_allbits(pd):
    """Every sample_type bit around the branch stack, HW_INDEX, group read."""
    a = base_attr(sample_type=ALL_BEFORE | S_BRANCH_STACK | ALL_AFTER,
                  read_format=F_GROUP | F_ID | F_TOTAL_TIME_ENABLED |
                  F_TOTAL_TIME_RUNNING | F_LOST,
                  branch_sample_type=B_ANY | B_USER | B_HW_INDEX,
                  regs_user=0xff0, regs_intr=0x3)
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    for i in range(5):
        s = {'ip': 0x401100 + i, 'pid': 100, 'tid': 100, 'time': 3000 + i,
             'cpu': i % 2, 'period': 77, 'br': entries([4, 0, 8, 2, 1][i], 0x402000, i),
             'hw_idx': i}
        if i == 1:
            s['stack'] = b''            # empty user stack: no dyn_size
            s['raw'] = b'abc'
            s['callchain'] = []
        pd.add(sample(pd.w, a, s))
    pd.finished_round()


def scen_nonid(pd):
    """Bits before the stack without IDENTIFIER: READ non-group, RAW."""
    a = base_attr(sample_type=S_IP | S_TID | S_TIME | S_READ | S_CALLCHAIN | S_CPU |
                  S_PERIOD | S_RAW | S_BRANCH_STACK | S_WEIGHT | S_DATA_SRC,
                  read_format=F_TOTAL_TIME_ENABLED | F_ID, ids=[21])
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    for i in range(4):
        pd.add(sample(pd.w, a, {'ip': 0x401200 + i, 'pid': 100, 'tid': 100,
                                'time': 4000 + i, 'cpu': 1, 'br': entries(3 + i, 0x403000, i),
                                'raw': b'x' * (i * 3)}))
    pd.finished_round()


def scen_multi(pd):
    """Three events told apart by IDENTIFIER, different sample types."""
    a = base_attr(sample_type=S_IDENTIFIER | S_IP | S_TID | S_TIME | S_PERIOD |
                  S_BRANCH_STACK, ids=[31, 32], name='cycles:u')
    b = base_attr(type=PERF_TYPE_HARDWARE, config=4,
                  sample_type=S_IDENTIFIER | S_IP | S_TID | S_TIME | S_CPU |
                  S_CALLCHAIN | S_BRANCH_STACK,
                  branch_sample_type=B_ANY | B_USER | B_HW_INDEX, ids=[41, 42],
                  name='branches:u')
    c = base_attr(type=PERF_TYPE_SOFTWARE, config=0,
                  sample_type=S_IDENTIFIER | S_IP | S_TID | S_TIME | S_PERIOD,
                  ids=[51], name='cpu-clock:u')
    pd.attrs = [a, b, c]
    sidebands(pd, a, 1000)
    for i in range(9):
        at = [a, b, c][i % 3]
        pd.add(sample(pd.w, at, {'ip': 0x401300 + i, 'pid': 100, 'tid': 100,
                                 'time': 5000 + i, 'id': at.ids[i % len(at.ids)],
                                 'br': entries(i % 4, 0x404000, i)}))
    pd.finished_round()


def scen_rename(pd):
    """An EVENT_UPDATE record (perf's PERF_EVENT_UPDATE__NAME) renames the
    second event after the first samples."""
    scen_multi(pd)
    w = pd.w
    upd = rec(w, EVENT_UPDATE, 0, w.u64(2, 41) + cstr('renamed-branches'))
    pd.recs.insert(len(pd.recs) - 4, upd)


def scen_sampleid(pd):
    """Two events told apart by PERF_SAMPLE_ID (no IDENTIFIER)."""
    st = S_IP | S_TID | S_TIME | S_ID | S_PERIOD | S_BRANCH_STACK
    a = base_attr(sample_type=st, ids=[61], name='cycles:u')
    b = base_attr(sample_type=st, config=1, ids=[71, 72], name='instructions:u',
                  branch_sample_type=B_ANY | B_USER | B_HW_INDEX)
    pd.attrs = [a, b]
    sidebands(pd, a, 1000)
    for i in range(6):
        at = [a, b][i % 2]
        pd.add(sample(pd.w, at, {'ip': 0x401400 + i, 'pid': 100, 'tid': 100,
                                 'time': 6000 + i, 'id': at.ids[i % len(at.ids)],
                                 'br': entries(2 + i, 0x405000, i)}))
    pd.finished_round()


def scen_attrsize(pd, size):
    kw = {}
    if size < 80:       # no branch_sample_type before VER2
        kw['branch_sample_type'] = 0
    a = base_attr(size=size, **kw)
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    for i in range(3):
        pd.add(sample(pd.w, a, {'ip': 0x401500 + i, 'pid': 100, 'tid': 100,
                                'time': 7000 + i, 'br': entries(2 + i, 0x406000, i)}))
    pd.finished_round()


def scen_newfields(pd):
    """Branch type, spec, new_type and priv in the entries (6.x)."""
    a = base_attr(branch_sample_type=B_ANY | B_USER | B_TYPE_SAVE | B_PRIV_SAVE |
                  B_HW_INDEX)
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    for i in range(10):
        br = []
        for k in range(16):
            j = i * 16 + k
            both = k == 14          # both prediction bits: perf prints M
            br.append({'from': 0x401000 + j, 'to': 0x402000 + j, 'pred': j % 2 or both,
                       'mispred': 1 - j % 2 or both, 'cycles': j, 'type': j % 16,
                       'spec': (j // 3) % 4, 'new_type': i if k == 15 else (j // 5) % 16,
                       'priv': (j // 7) % 8})
        pd.add(sample(pd.w, a, {'ip': 0x401600 + i, 'pid': 100, 'tid': 100,
                                'time': 8000 + i, 'br': br}))
    pd.finished_round()


def scen_counters(pd, counters=True):
    """perf 6.8's branch counters after the entries (perf 6.1 cannot read
    them: the twin is the same file without)."""
    bst = B_ANY | B_USER | B_HW_INDEX | (B_COUNTERS if counters else 0)
    a = base_attr(sample_type=S_IP | S_TID | S_TIME | S_BRANCH_STACK | S_WEIGHT,
                  branch_sample_type=bst)
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    for i in range(4):
        pd.add(sample(pd.w, a, {'ip': 0x401e00 + i, 'pid': 100, 'tid': 100,
                                'time': 13000 + i, 'br': entries(i * 3, 0x40e000, i)}))
    pd.finished_round()


def scen_compressed(pd):
    """Records in PERF_RECORD_COMPRESSED, one split across two of them."""
    a = base_attr()
    pd.attrs = [a]
    w = pd.w
    sidebands(pd, a, 1000)
    plain = []
    for i in range(12):
        plain.append(sample(w, a, {'ip': 0x401700 + i, 'pid': 100, 'tid': 100,
                                   'time': 9000 + i, 'br': entries(i % 7, 0x407000, i)}))
    blob = b''.join(plain[:8])
    cut = len(plain[0]) + len(plain[1]) + 40       # in the middle of the third
    pd.recs += pd.compress([blob[:cut], blob[cut:]])
    pd.finished_round()
    pd.recs += plain[8:10]                         # uncompressed in between
    pd.recs += pd.compress([b''.join(plain[10:])])
    pd.finished_round()


def scen_compressedbig(pd):
    """One COMPRESSED record of 2048 samples of 128 bytes: 256 KiB once
    decompressed, the reader's first buffer to the byte."""
    a = base_attr(sample_type=S_IP | S_TID | S_TIME | S_PERIOD | S_RAW | S_BRANCH_STACK)
    pd.attrs = [a]
    w = pd.w
    sidebands(pd, a, 1000)
    plain = [sample(w, a, {'ip': 0x401700 + i % 64, 'pid': 100, 'tid': 100,
                           'time': 9000 + i, 'br': entries(3, 0x407000, i % 5),
                           'raw': b'abcd'})
             for i in range(2048)]
    assert all(len(x) == 128 for x in plain)
    pd.recs += pd.compress([b''.join(plain)])
    pd.finished_round()


def scen_buildid(pd):
    """HEADER_BUILD_ID table and MMAP2 records in the build-id form."""
    a = base_attr()
    pd.attrs = [a]
    w = pd.w
    pd.build_ids = [(100, BID1, '/usr/bin/prog', MISC_USER),
                    (-1, BID2, '[kernel.kallsyms]', MISC_KERNEL)]
    pd.add(comm_rec(w, a, {'pid': 100, 'tid': 100, 'comm': 'prog', 'time': 1000}))
    pd.add(mmap2_rec(w, a, {'pid': 100, 'tid': 100, 'start': 0x400000, 'len': 0x3000,
                            'pgoff': 0, 'path': '/usr/bin/prog', 'time': 1001,
                            'build_id': BID1}))
    pd.add(mmap2_rec(w, a, {'pid': 100, 'tid': 100, 'start': 0x7f0000000000,
                            'len': 0x20000, 'pgoff': 0x1000, 'path': '/lib/libc.so.6',
                            'time': 1002, 'build_id': BID2, 'prot': 5, 'flags': 2}))
    for i in range(3):
        pd.add(sample(w, a, {'ip': 0x401800 + i, 'pid': 100, 'tid': 100,
                             'time': 10000 + i, 'br': entries(3, 0x408000, i)}))
    pd.finished_round()


def scen_rounds(pd):
    """Out-of-order timestamps within and across rounds, time-0 records."""
    a = base_attr()
    pd.attrs = [a]
    w = pd.w
    pd.add(comm_rec(w, a, {'pid': 100, 'tid': 100, 'comm': 'prog', 'time': 0}))
    pd.add(mmap2_rec(w, a, {'pid': 100, 'tid': 100, 'start': 0x400000, 'len': 0x3000,
                            'pgoff': 0, 'path': '/usr/bin/prog', 'time': 0}))
    times = [[500, 300, 400, 300, 100], [350, 200, 900, 600],
             [250, 700, 650, 1000, 50], [800, 1200, 1100], [1150, 1300]]
    k = 0
    for r, ts in enumerate(times):
        for t in ts:
            pd.add(sample(w, a, {'ip': 0x401900 + k, 'pid': 100, 'tid': 100, 'time': t,
                                 'br': entries(k % 3 + 1, 0x409000, k)}))
            k += 1
            if k == 7:
                pd.add(comm_rec(w, a, {'pid': 100, 'tid': 100, 'comm': 'prog2',
                                       'time': 150}))
        if r != 2:                              # two rounds without a mark
            pd.finished_round()


def scen_notime(pd):
    """No PERF_SAMPLE_TIME: file order."""
    a = base_attr(sample_type=S_IP | S_TID | S_PERIOD | S_BRANCH_STACK)
    pd.attrs = [a]
    sidebands(pd, a, 0)
    for i in range(5):
        pd.add(sample(pd.w, a, {'ip': 0x401a00 + i, 'pid': 100, 'tid': 100,
                                'br': entries(i, 0x40a000, i)}))
        if i == 2:
            pd.finished_round()
    pd.finished_round()


def scen_nosidall(pd):
    """sample_id_all unset (perf 3.x): side-band records without sample_id."""
    a = base_attr()
    del a.flags[A_SAMPLE_ID_ALL]
    pd.attrs = [a]
    sidebands(pd, a, 0)
    for i in range(4):
        pd.add(sample(pd.w, a, {'ip': 0x401b00 + i, 'pid': 100, 'tid': 100,
                                'time': 300 - i * 10, 'br': entries(i + 1, 0x40b000, i)}))
    pd.finished_round()


def scen_unknown(pd, with_unknown=True):
    """Records the reader skips: unknown types, AUXTRACE and tracing data
    with payloads (pipe mode), ID_INDEX, TIME_CONV, FINISHED_INIT.  perf
    6.1 stops at the unknown types 100 and 25 and, in pipe mode, at AUXTRACE
    without AUXTRACE_INFO and on tracing data it cannot parse: the oracle
    is the same file without those (unknownperf)."""
    a = base_attr()
    pd.attrs = [a]
    w = pd.w
    sidebands(pd, a, 1000)
    pd.add(rec(w, FINISHED_INIT, 0, b''))
    if with_unknown:
        pd.add(rec(w, 100, 0, b'unknown!'))
        pd.add(rec(w, 25, 0, w.u64(1, 2)))        # kernel type from the future
    pd.add(rec(w, ID_INDEX, 0, w.u64(1, 11, 0, 0, 100)))
    pd.add(rec(w, TIME_CONV, 0, w.u64(1, 2, 3)))
    if pd.pipe and with_unknown:
        payload = b'P' * 40
        pd.add(rec(w, AUXTRACE, 0, w.u64(len(payload), 0, 0) + w.u32(0, 100, 0, 0)) + payload)
        td = b'T' * 24
        pd.add(rec(w, HEADER_TRACING_DATA, 0, w.u32(len(td))) + td)
    for i in range(3):
        pd.add(sample(w, a, {'ip': 0x401c00 + i, 'pid': 100, 'tid': 100,
                             'time': 11000 + i, 'br': entries(i + 2, 0x40c000, i)}))
    pd.finished_round()


def scen_noname(pd, flags, type=PERF_TYPE_HARDWARE, config=0, **kw):
    a = base_attr(type=type, config=config, flags=flags, name=None, **kw)
    pd.attrs = [a]
    pd.event_desc = False
    sidebands(pd, a, 1000)
    pd.add(sample(pd.w, a, {'ip': 0x401d00, 'pid': 100, 'tid': 100, 'time': 12000,
                            'br': entries(2, 0x40d000)}))
    pd.finished_round()


def scen_attr0(pd):
    """attr.size 0, which means the first attr of 64 bytes (VER0)."""
    a = base_attr(size=64, size_field=0, branch_sample_type=0)
    pd.attrs = [a]
    sidebands(pd, a, 1000)
    for i in range(2):
        pd.add(sample(pd.w, a, {'ip': 0x401500 + i, 'pid': 100, 'tid': 100,
                                'time': 7000 + i, 'br': entries(2 + i, 0x406000, i)}))
    pd.finished_round()


def scen_manyids(pd):
    """An event with 21 ids written in decreasing order, one of them twice,
    and a second event."""
    st = S_IDENTIFIER | S_IP | S_TID | S_TIME | S_PERIOD | S_BRANCH_STACK
    a = base_attr(sample_type=st, ids=[140 - i for i in range(20)] + [133],
                  name='cycles:u')
    b = base_attr(sample_type=st, config=1, ids=[200], name='instructions:u')
    pd.attrs = [a, b]
    sidebands(pd, a, 1000)
    for i, ident in enumerate([121, 140, 200, 133]):
        pd.add(sample(pd.w, b if ident == 200 else a,
                      {'ip': 0x401600 + i, 'pid': 100, 'tid': 100, 'time': 8000 + i,
                       'id': ident, 'br': entries(2, 0x407000, i)}))
    pd.finished_round()


def scen_attrrec(pd):
    """File mode with the attrs as HEADER_ATTR records in the data."""
    scen_multi(pd)
    pd.attr_records_in_file = True
    pd.event_desc = False


SID = {A_SAMPLE_ID_ALL: 1, A_MMAP: 1, A_COMM: 1, A_TASK: 1}
SCENARIOS = {
    'basic': scen_basic,
    'allbits': scen_allbits,
    'nonid': scen_nonid,
    'multi': scen_multi,
    'sampleid': scen_sampleid,
    'rename': scen_rename,
    'attr64': lambda pd: scen_attrsize(pd, 64),
    'attr72': lambda pd: scen_attrsize(pd, 72),
    'attr80': lambda pd: scen_attrsize(pd, 80),
    'attr96': lambda pd: scen_attrsize(pd, 96),
    'attr104': lambda pd: scen_attrsize(pd, 104),
    'attr112': lambda pd: scen_attrsize(pd, 112),
    'attr120': lambda pd: scen_attrsize(pd, 120),
    'attr128': lambda pd: scen_attrsize(pd, 128),
    'attr136': lambda pd: scen_attrsize(pd, 136),
    'newfields': scen_newfields,
    'compressed': scen_compressed,
    'compressedbig': scen_compressedbig,
    'counters': scen_counters,
    'nocounters': lambda pd: scen_counters(pd, False),
    'buildid': scen_buildid,
    'rounds': scen_rounds,
    'attr0': scen_attr0,
    'manyids': scen_manyids,
    'notime': scen_notime,
    'nosidall': scen_nosidall,
    'unknown': scen_unknown,
    'unknownperf': lambda pd: scen_unknown(pd, False),
    'attrrec': scen_attrrec,
    'name-u': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_KERNEL: 1, A_EXCLUDE_HV: 1}),
    'name-kh': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_USER: 1}),
    'name-k': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_USER: 1, A_EXCLUDE_HV: 1}),
    'name-ppp': lambda pd: scen_noname(pd, {**SID, A_PRECISE: 3, A_EXCLUDE_GUEST: 1}),
    'name-up': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_KERNEL: 1, A_EXCLUDE_HV: 1,
                                           A_PRECISE: 1, A_EXCLUDE_GUEST: 1}),
    'name-h': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_GUEST: 1}),
    'name-g': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_HOST: 1}),
    'name-sw': lambda pd: scen_noname(pd, dict(SID), PERF_TYPE_SOFTWARE, 1),
    'name-cache': lambda pd: scen_noname(pd, dict(SID), PERF_TYPE_HW_CACHE, 0x10002),
    'name-raw': lambda pd: scen_noname(pd, dict(SID), PERF_TYPE_RAW, 0x1c4),
    'name-cacheacc': lambda pd: scen_noname(pd, dict(SID), PERF_TYPE_HW_CACHE, 0x0),
    'name-cachebad': lambda pd: scen_noname(pd, dict(SID), PERF_TYPE_HW_CACHE, 0xff),
    'name-bp': lambda pd: scen_noname(pd, dict(SID), PERF_TYPE_BREAKPOINT, 0),
    'name-bpx': lambda pd: scen_noname(pd, {**SID, A_EXCLUDE_KERNEL: 1, A_EXCLUDE_HV: 1},
                                       PERF_TYPE_BREAKPOINT, 0, bp_type=7, bp_addr=0x401234),
    'name-type42': lambda pd: scen_noname(pd, dict(SID), 42, 0),
}


def good(name):
    scen, mode, order = name.rsplit('-', 2)
    assert mode in ('file', 'pipe') and order in ('le', 'be'), name
    pd = PerfData(swap=order == 'be', pipe=mode == 'pipe')
    SCENARIOS[scen](pd)
    return pd.bytes()


# Scenarios whose content does not depend on the mode or byte order get
# fewer combinations (the test runtime).
FEW = {'counters', 'nocounters', 'compressedbig', 'attr64', 'attr72', 'attr80', 'attr96', 'attr104', 'attr112', 'attr120',
       'attr128', 'attr136'}
# perf 6.1 cannot read these in pipe mode (a HEADER_ATTR of attr.size 0).
FILE_ONLY = {'attr0'}
# perf 6.1 cannot read these (a bigger attr than it knows; a user record
# type it does not know): their expected output is that of the twin.
TWINS = {'attr136': 'attr128', 'unknown': 'unknownperf', 'counters': 'nocounters'}


def good_names():
    out = []
    for s in SCENARIOS:
        if s in FILE_ONLY:
            combos = [('file', 'le'), ('file', 'be')]
        elif s in FEW:
            combos = [('file', 'le'), ('pipe', 'be')]
        elif s.startswith('name-'):
            combos = [('file', 'le')] + ([('file', 'be')] if s in ('name-u', 'name-ppp') else [])
        else:
            combos = [(m, o) for m in ('file', 'pipe') for o in ('le', 'be')]
        out += ['%s-%s-%s' % (s, m, o) for m, o in combos]
    return out


# ------------------------------------------------------------ hostile input


def _basic(swap=False, pipe=False, **kw):
    pd = PerfData(swap=swap, pipe=pipe)
    a = base_attr(**kw)
    pd.attrs = [a]
    return pd, a


def _one_sample(pd, a, **s):
    d = {'ip': 0x401000, 'pid': 1, 'tid': 1, 'time': 10, 'br': entries(2, 0x401000)}
    d.update(s)
    pd.add(sample(pd.w, a, d))


def _patch(b, off, fmt, *v):
    b = bytearray(b)
    struct.pack_into(fmt, b, off, *v)
    return bytes(b)


def _data_off(b):
    return struct.unpack_from('<Q', b, 40)[0]


def _file_with(recs, **kw):
    """A good file mode file whose data is @recs (record bytes)."""
    pd, a = _basic(**kw)
    pd.recs = list(recs(pd, a))
    return pd.bytes()


def bad_cases():
    """name -> (bytes, what it is).  Every one is refused with exit 2."""
    out = {}
    good_file = good('basic-file-le')
    d0 = _data_off(good_file)
    w = W(False)

    out['magic-only'] = (b'PERFILE2', 'Only the 8-byte magic.')
    out['header-cut'] = (good_file[:60], 'A file-mode header cut at 60 of its 104 bytes.')
    out['header-size'] = (_patch(good_file, 8, '<Q', 200),
                          'A header whose size field says 200 (perf writes 104).')
    out['magic-v1'] = (b'PERFFILE' + good_file[8:], "The version-1 magic 'PERFFILE' (perf before 2.6.35).")
    out['swapped-garbage'] = (b'2ELIFREP' + bytes(range(7, 200)),
                              'The byte-swapped magic followed by garbage.')
    out['attr-size-small'] = (_patch(good_file, 16, '<Q', 40),
                              'An attr entry size of 40, smaller than the first attr (64) plus its ids section.')
    out['attrs-past-eof'] = (_patch(good_file, 32, '<Q', 1 << 40),
                             'An attr section of 2^40 bytes in a small file.')
    out['attrs-partial'] = (_patch(good_file, 32, '<Q', 100),
                            'An attr section of 100 bytes: not a whole number of 144-byte entries.')
    ids_field = struct.unpack_from('<Q', good_file, 24)[0] + 128
    out['attr-ids-past-eof'] = (_patch(good_file, ids_field, '<QQ', 1 << 50, 16),
                                'The ids of the attr point past the end of the file.')
    out['attr-size-field'] = (_patch(good_file, struct.unpack_from('<Q', good_file, 24)[0] + 4,
                                     '<I', 5000), 'An attr whose attr.size says 5000.')
    out['attr-sample-type'] = (_patch(good_file, struct.unpack_from('<Q', good_file, 24)[0] + 24,
                                      '<Q', (1 << 30) | 0x807),
                               'An attr with a sample_type bit perf does not know (1 << 30): its layout is unknown.')
    out['data-past-eof'] = (_patch(good_file, 48, '<Q', 1 << 62),
                            'A data section of 2^62 bytes.')
    out['data-offset-wrap'] = (_patch(good_file, 40, '<QQ', (1 << 64) - 8, 16),
                               'A data section whose offset + size wraps past 2^64.')
    out['data-in-header'] = (_patch(good_file, 40, '<Q', 8),
                             'A data section that starts inside the header.')
    aoff = struct.unpack_from('<Q', good_file, 24)[0]
    out['data-overlaps-attrs'] = (_patch(good_file, 40, '<Q', aoff + 8),
                                  'A data section that overlaps the attr section.')
    out['record-size-zero'] = (_patch(good_file, d0 + 6, '<H', 0),
                               'A record whose size is 0 (a reader that trusts it loops for ever).')
    out['record-size-small'] = (_patch(good_file, d0 + 6, '<H', 4),
                                'A record whose size (4) is smaller than its header.')
    dlen = struct.unpack_from('<Q', good_file, 48)[0]
    last = good_file[:d0 + dlen]
    out['record-past-end'] = (_patch(good_file, d0 + 6, '<H', 65000),
                              'A record whose size runs past the end of the data section.')
    pd, a = _basic()
    pd.event_desc = False
    _one_sample(pd, a)
    pd.recs.append(b'\x09\0\0\0\x02')
    out['data-trailing'] = (pd.bytes(), 'A data section that ends with 5 bytes: a record header cut short.')
    _ = last

    def rec_file(make, **kw):
        return _file_with(make, **kw)

    out['sample-cut'] = (rec_file(lambda pd, a: [rec(pd.w, SAMPLE, MISC_USER, pd.w.u64(0x401000))]),
                         'A sample that ends after its IP although sample_type also asks for TID, TIME, PERIOD and a branch stack.')
    out['brstack-nr-huge'] = (rec_file(lambda pd, a: [rec(pd.w, SAMPLE, MISC_USER,
                              pd.w.u64(0x401000) + pd.w.u32(1, 1) + pd.w.u64(10, 1, 1 << 40))]),
                              'A branch stack claiming 2^40 entries in a 48-byte sample.')
    cc = base_attr(sample_type=S_IP | S_CALLCHAIN | S_BRANCH_STACK)
    out['callchain-nr-huge'] = (
        PerfDataWith([cc], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000, (1 << 64) - 1, 1))]),
        'A callchain claiming 2^64 - 1 entries.')
    rd = base_attr(sample_type=S_IP | S_READ | S_BRANCH_STACK, read_format=F_GROUP | F_ID)
    out['read-group-nr-huge'] = (
        PerfDataWith([rd], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000, 1 << 33, 5, 11, 0))]),
        'A read group claiming 2^33 values.')
    rt = base_attr(sample_type=S_IP | S_READ | S_BRANCH_STACK,
                   read_format=F_GROUP | F_ID | F_TOTAL_TIME_ENABLED | F_TOTAL_TIME_RUNNING)
    out['read-group-times'] = (
        PerfDataWith([rt], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000, 1, 5, 6))]),
        'A read group of 1 value whose times take the bytes of that value.')
    out['too-many-events'] = (
        PerfDataWith([base_attr(size=64, branch_sample_type=0, ids=[i + 1]) for i in range(4097)],
                     [rec(w, SAMPLE, MISC_USER, w.u64(0x401000))]),
        'An attr section of 4097 events (at most 4096).')
    rw = base_attr(sample_type=S_IP | S_RAW | S_BRANCH_STACK)
    out['raw-size-overrun'] = (
        PerfDataWith([rw], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000) + w.u32(4000, 0) + w.u64(0))]),
        'Raw data claiming 4000 bytes in a 32-byte sample.')
    su = base_attr(sample_type=S_IP | S_BRANCH_STACK | S_STACK_USER)
    out['stack-user-huge'] = (
        PerfDataWith([su], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000, 0, 1 << 63))]),
        'A user stack claiming 2^63 bytes.')
    ru = base_attr(sample_type=S_IP | S_BRANCH_STACK | S_REGS_USER, regs_user=(1 << 64) - 1)
    out['regs-overrun'] = (
        PerfDataWith([ru], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000, 0, 2, 1, 2))]),
        'User registers: 64 announced by the mask, 2 present.')
    out['mmap-no-nul'] = (rec_file(lambda pd, a: [rec(pd.w, MMAP, MISC_USER,
                          pd.w.u32(1, 1) + pd.w.u64(0x400000, 0x1000, 0) + b'/usr/bin/abcdefg'
                          + sample_id(pd.w, a, {'pid': 1, 'tid': 1, 'time': 5}))]),
                          'An MMAP record whose file name has no NUL before its sample_id.')
    out['comm-short'] = (rec_file(lambda pd, a: [rec(pd.w, COMM, 0, pd.w.u32(1, 1))]),
                         'A COMM record without a name or sample_id.')
    out['sample-id-overrun'] = (rec_file(lambda pd, a: [rec(pd.w, FORK, 0, pd.w.u32(1, 1, 2, 1) + pd.w.u64(5))]),
                                'A FORK record without room for the sample_id its attr asks for (sample_id_all, TID + TIME).')
    out['mmap2-build-id-size'] = (rec_file(lambda pd, a: [rec(pd.w, MMAP2, MISC_USER | MISC_MMAP_BUILD_ID,
                                  pd.w.u32(1, 1) + pd.w.u64(0x400000, 0x1000, 0) + bytes([21, 0, 0, 0])
                                  + b'\x11' * 20 + pd.w.u32(5, 2) + cstr('/bin/x')
                                  + sample_id(pd.w, a, {'pid': 1, 'tid': 1, 'time': 5}))]),
                                  'An MMAP2 record in the build-id form with a build-id size of 21 (at most 20).')
    out['no-attrs'] = (PerfDataWith([], [rec(w, SAMPLE, MISC_USER, w.u64(0x401000))]),
                       'Records but no attr at all.')
    two = [base_attr(ids=[1]), base_attr(ids=[2], config=1)]
    out['events-no-id'] = (PerfDataWith(two, [sample(w, two[0], {'ip': 1, 'time': 5, 'br': []})]),
                           'Two events whose samples carry no id (neither PERF_SAMPLE_ID nor IDENTIFIER): they cannot be told apart.')
    mix = [base_attr(ids=[1], sample_type=S_IDENTIFIER | S_IP | S_BRANCH_STACK),
           base_attr(ids=[2], sample_type=S_IP | S_ID | S_BRANCH_STACK)]
    out['events-id-mixed'] = (PerfDataWith(mix, [sample(w, mix[0], {'ip': 1, 'br': []})]),
                              'Two events whose samples hold the id at different places.')

    # compressed data
    def comp(payload, feature=True):
        pd, a = _basic()
        pd.recs = [rec(pd.w, COMPRESSED, 0, payload)]
        if feature:
            pd.compressed_mmap_len = 65536
        return pd.bytes()

    out['compressed-not-zstd'] = (comp(b'this is not zstd data at all....'),
                                  'A COMPRESSED record whose payload is not zstd.')
    out['compressed-empty'] = (comp(b''),
                               'A COMPRESSED record with no data (perf 6.1: "Couldn\'t decompress data").')
    out['compressed-bomb'] = (comp(zstd_compress(b'\0' * (80 << 20), 1)),
                              'A COMPRESSED record that decompresses to 80 MiB (a zip bomb; the limit is 64 MiB).')
    pd, a = _basic()
    s1 = sample(pd.w, a, {'ip': 1, 'pid': 1, 'tid': 1, 'time': 5, 'br': entries(3, 0x401000)})
    out['compressed-cut'] = (comp(zstd_compress(s1 + s1[:20])),
                             'Compressed data that ends in the middle of a record, at the end of the input.')
    inner = rec(pd.w, COMPRESSED, 0, zstd_compress(s1))
    out['compressed-nested'] = (comp(zstd_compress(inner)),
                                'A COMPRESSED record inside compressed data.')
    out['compressed-size-zero'] = (comp(zstd_compress(s1[:6] + b'\0\0' + s1[8:])),
                                   'A record of size 0 inside compressed data.')

    # feature sections
    pd, a = _basic()
    _one_sample(pd, a)
    f = pd.bytes()
    doff, dlen = struct.unpack_from('<QQ', f, 40)
    sec = doff + dlen       # the EVENT_DESC section entry (the only feature)
    out['feature-past-eof'] = (_patch(f, sec, '<QQ', 1 << 40, 100),
                               'The EVENT_DESC feature section points past the end of the file.')
    eoff = struct.unpack_from('<Q', f, sec)[0]
    out['feature-event-desc-nr'] = (_patch(f, eoff, '<I', 1000),
                                    'EVENT_DESC claims 1000 events, holds 1.')
    out['feature-event-desc-string'] = (_patch(f, eoff + 8 + 128 + 4, '<I', 1 << 30),
                                        'An EVENT_DESC event name whose length says 2^30.')
    out['feature-bit-255'] = (_patch(f, 72 + 24, '<Q', 1 << 63),
                              'Feature bit 255 set besides EVENT_DESC: its section entry is read from the bytes after the table and points outside the file.')
    pd, a = _basic()
    pd.build_ids = [(1, BID1, '/bin/x', MISC_USER)]
    _one_sample(pd, a)
    f = pd.bytes()
    doff, dlen = struct.unpack_from('<QQ', f, 40)
    boff = struct.unpack_from('<Q', f, doff + dlen)[0]
    out['build-id-size-lie'] = (_patch(f, boff + 6, '<H', 4000),
                                'A build-id record in the BUILD_ID feature whose size runs past its section.')

    # pipe mode
    gp = good('basic-pipe-le')
    out['pipe-cut'] = (gp[:len(gp) - 37], 'A pipe-mode stream cut in the middle of its last record.')
    out['pipe-header-size'] = (_patch(gp, 8, '<Q', 17)[:16] + gp[16:],
                               'A pipe header whose size says 17 (16 is pipe mode, 104 file mode).')
    pd, a = _basic(pipe=True)
    pd.recs = [rec(pd.w, AUXTRACE, 0, pd.w.u64(1 << 40, 0, 0) + pd.w.u32(0, 1, 0, 0)) + b'x' * 64]
    out['pipe-auxtrace-past-end'] = (pd.bytes(), 'An AUXTRACE record whose payload (2^40 bytes) runs past the end of the stream.')
    out['pipe-record-size-zero'] = (_patch(gp, len(gp) - 8 + 6, '<H', 0),
                                    'A pipe-mode record of size 0 (its last, a FINISHED_ROUND).')
    out['pipe-swapped-cut'] = (good('basic-pipe-be')[:300],
                               'A byte-swapped pipe-mode stream cut inside a record.')
    pd, a = _basic(pipe=True)
    pd.attrs = []
    pd.recs = [rec(pd.w, HEADER_ATTR, 0, pd.w.u32(0, 60) + b'\0' * 16)]
    out['pipe-attr-short'] = (pd.bytes(), 'A HEADER_ATTR record too short for an attr.')
    out.update(more_bad_cases())
    return out


def _pipe_with(recs):
    """A good pipe-mode stream (its attr and EVENT_DESC) and then @recs."""
    pd, a = _basic(pipe=True)
    pd.recs = list(recs(pd, a))
    return pd.bytes()


def more_bad_cases():
    """Records and features each reader refuses on its own."""
    out = {}
    sid = {'pid': 1, 'tid': 1, 'time': 5}

    def bid_body(w, size_byte, path):
        return w.p('i', -1) + b'\x11' * 20 + bytes([size_byte, 0, 0, 0]) + path

    out['pipe-feature-short'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_FEATURE, 0, b'')]),
                                 'A HEADER_FEATURE record without the feature number.')
    out['pipe-event-update-short'] = (_pipe_with(lambda pd, a: [rec(pd.w, EVENT_UPDATE, 0, pd.w.u64(1))]),
                                      'An EVENT_UPDATE record of 16 bytes (its type and id need 24).')
    out['pipe-auxtrace-short'] = (_pipe_with(lambda pd, a: [rec(pd.w, AUXTRACE, 0, b'')]),
                                  'An AUXTRACE record without its payload size.')
    out['pipe-tracing-data-short'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_TRACING_DATA, 0, b'')]),
                                      'A TRACING_DATA record without its size.')
    out['pipe-build-id-short'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_BUILD_ID, MISC_USER, pd.w.u64(1, 2))]),
                                  'A HEADER_BUILD_ID record of 24 bytes, shorter than pid, id and size.')
    out['pipe-build-id-size'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_BUILD_ID, MISC_USER | MISC_BUILD_ID_SIZE,
                                                             bid_body(pd.w, 21, cstr('/bin/x', 64)))]),
                                 'A HEADER_BUILD_ID record whose build-id size says 21 (at most 20).')
    out['pipe-build-id-no-nul'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_BUILD_ID, MISC_USER | MISC_BUILD_ID_SIZE,
                                                               bid_body(pd.w, 20, b'/bin/xyzabcd'))]),
                                   'A HEADER_BUILD_ID record whose file name has no NUL.')
    out['pipe-attr-size'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_ATTR, 0,
                                                         pd.w.u32(0, 4000) + base_attr().pack(pd.w, 64)[8:] + pd.w.u64(13))]),
                             'A HEADER_ATTR record whose attr.size (4000) is larger than the record.')
    out['pipe-event-desc-empty'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_FEATURE, 0, pd.w.u64(FEAT_EVENT_DESC))]),
                                    'An EVENT_DESC feature record without its counts.')
    out['pipe-event-desc-attr-size'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_FEATURE, 0,
                                                                    pd.w.u64(FEAT_EVENT_DESC) + pd.w.u32(1, 0))]),
                                        'An EVENT_DESC feature record whose attr size says 0.')
    a0 = base_attr()
    out['pipe-event-desc-ids'] = (_pipe_with(lambda pd, a: [rec(pd.w, HEADER_FEATURE, 0,
                                                              pd.w.u64(FEAT_EVENT_DESC) + pd.w.u32(1, a0.size) + a0.pack(pd.w)
                                                              + pd.w.u32(1 << 20) + header_string(pd.w, 'cycles:u'))]),
                                  'An EVENT_DESC entry claiming 2^20 ids with none there.')
    nosid = {A_MMAP: 1, A_COMM: 1, A_TASK: 1, A_MMAP2: 1, A_EXCLUDE_KERNEL: 1}
    out['mmap-short'] = (_file_with(lambda pd, a: [rec(pd.w, MMAP, MISC_USER, pd.w.u32(1, 1) + pd.w.u64(0x400000))],
                                    flags=nosid),
                         'An MMAP record of 24 bytes (no sample_id_all): its fields and name need more.')
    out['comm-no-nul'] = (_file_with(lambda pd, a: [rec(pd.w, COMM, 0, pd.w.u32(1, 1) + b'abcdefgh' + sample_id(pd.w, a, sid))]),
                          'A COMM record whose name has no NUL before its sample_id.')
    out['no-samples'] = (_file_with(lambda pd, a: [comm_rec(pd.w, a, {'pid': 100, 'tid': 100, 'comm': 'prog',
                                                                    'exec': 1, 'time': 1000})]),
                         'A COMM record and no sample (test_options.c: nothing to annotate).')
    out['no-branch-stacks'] = (_file_with(lambda pd, a: [sample(pd.w, a, {'ip': 0x401000, 'time': 10})],
                                          sample_type=S_IP | S_TID | S_TIME | S_PERIOD, branch_sample_type=0),
                               'Samples without branch stacks (test_options.c: nothing to annotate).')
    aux = lambda pd, size: rec(pd.w, AUXTRACE, 0, pd.w.u64(size, 0, 0) + pd.w.u32(0, 1, 0, 0))
    out['auxtrace-past-end'] = (_file_with(lambda pd, a: [aux(pd, 1 << 40) + b'x' * 64]),
                                'An AUXTRACE record whose payload (2^40 bytes) runs past the end of the data section.')
    out['auxtrace-then-size-zero'] = (_file_with(lambda pd, a: [aux(pd, 16) + b'y' * 16
                                                                + pd.w.u32(COMM) + pd.w.p('HH', 0, 0)]),
                                      'An AUXTRACE record with a payload of 16 bytes, then a record of size 0.')
    out['tracing-data-short'] = (_file_with(lambda pd, a: [rec(pd.w, HEADER_TRACING_DATA, 0, b'')]),
                                 'A TRACING_DATA record without its size (file mode).')
    out['comm-header-only'] = (_file_with(lambda pd, a: [rec(pd.w, COMM, 0, b'')], flags=nosid),
                               'A COMM record of its header only (no sample_id_all).')
    out['lost-short'] = (_file_with(lambda pd, a: [rec(pd.w, LOST, 0, pd.w.u64(11))], flags=nosid),
                         'A LOST record with its id but not its count (no sample_id_all).')
    out['fork-short'] = (_file_with(lambda pd, a: [rec(pd.w, FORK, 0, pd.w.u32(1, 1))], flags=nosid),
                         'A FORK record with pid and ppid only (no sample_id_all).')
    out['read-format-bits'] = (_file_with(lambda pd, a: [], read_format=1 << 10),
                               'An attr with a read_format bit perf does not know (1 << 10).')
    pd, a = _basic()
    pd.event_desc = False
    pd.compressed_mmap_len = 65536
    s1 = sample(pd.w, a, {'ip': 1, 'pid': 1, 'tid': 1, 'time': 5, 'br': entries(3, 0x401000)})
    pd.recs = [rec(pd.w, COMPRESSED, 0, zstd_compress(s1 + s1[:20])), rec(pd.w, FINISHED_ROUND, 0, b'')]
    out['compressed-carry'] = (pd.bytes(), 'Compressed data that ends in the middle of a record, followed by a record that is not COMPRESSED.')
    out.update(id_bad_cases())
    return out


def id_bad_cases():
    """Headers, feature tables, ids and compressed records cut short."""
    out = {}
    w = W(False)
    good_file = good('basic-file-le')
    out['header-cut-104'] = (good_file[:90],
                             'A file-mode header that says 104 bytes, cut at 90 (past the 72 of the old header).')
    pd, a = _basic()
    _one_sample(pd, a)
    f = pd.bytes()
    doff, dlen = struct.unpack_from('<QQ', f, 40)
    out['feature-table-cut'] = (f[:doff + dlen + 8],
                                'A file cut 8 bytes into the feature section table (EVENT_DESC).')
    pd, a = _basic()
    pd.build_ids = [(1, BID1, '/bin/x', MISC_USER)]
    _one_sample(pd, a)
    f = pd.bytes()
    doff, dlen = struct.unpack_from('<QQ', f, 40)
    bsize = struct.unpack_from('<Q', f, doff + dlen + 8)[0]
    out['build-id-section-tail'] = (_patch(f, doff + dlen + 8, '<Q', bsize + 4),
                                    'A BUILD_ID section 4 bytes longer than its one record: a record header cut short.')
    two = [base_attr(ids=[1], sample_type=S_IDENTIFIER | S_IP | S_BRANCH_STACK),
           base_attr(ids=[2], sample_type=S_IDENTIFIER | S_IP | S_BRANCH_STACK, config=1)]
    out['sample-no-id'] = (PerfDataWith(two, [rec(w, SAMPLE, MISC_USER, b'')]),
                           'Two events with PERF_SAMPLE_IDENTIFIER and a sample of 8 bytes: no room for the id.')
    out['sample-id-all-no-id'] = (PerfDataWith(two, [rec(w, COMM, 0, b'')]),
                                  'Two events with sample_id_all and IDENTIFIER, a COMM record of 8 bytes: no room for the id in its sample_id.')
    mix = [base_attr(ids=[1], sample_type=S_IP | S_TID | S_ID | S_BRANCH_STACK),
           base_attr(ids=[2], sample_type=S_IP | S_TID | S_ID | S_CPU | S_BRANCH_STACK, config=1)]
    out['events-sample-id-all-mixed'] = (
        PerfDataWith(mix, [rec(w, COMM, 0, w.u32(1, 1) + cstr('x') + sample_id(w, mix[0], {'pid': 1, 'tid': 1}))]),
        'Two events whose sample_id (sample_id_all) hold the id at different places, and a COMM record.')
    a0 = base_attr()
    out['pipe-event-desc-name-cut'] = (
        _pipe_with(lambda pd, a: [rec(pd.w, HEADER_FEATURE, 0, pd.w.u64(FEAT_EVENT_DESC) + pd.w.u32(1, 132)
                                      + a0.pack(pd.w, 132) + pd.w.u32(0))]),
        'An EVENT_DESC entry that ends before the length of its event name.')
    pd, a = _basic()
    pd.event_desc = False
    pd.compressed_mmap_len = 65536
    s1 = sample(pd.w, a, {'ip': 1, 'pid': 1, 'tid': 1, 'time': 5, 'br': entries(3, 0x401000)})
    pd.recs = [rec(pd.w, COMPRESSED, 0, zstd_compress(s1 + s1[:20])),
               rec(pd.w, COMPRESSED, 0, zstd_compress(s1[20:30]))]
    out['compressed-carry-short'] = (pd.bytes(), 'A record cut at the end of a COMPRESSED record, and the next COMPRESSED record too short to complete it.')
    pd, a = _basic()
    pd.event_desc = False
    pd.compressed_mmap_len = 65536
    pd.recs = [rec(pd.w, COMPRESSED, 0, zstd_compress(s1 + s1[:5])),
               rec(pd.w, COMPRESSED, 0, zstd_compress(s1[5:6] + b'\0\0' + s1[8:]))]
    out['compressed-carry-size-zero'] = (pd.bytes(), 'A record header cut after 5 bytes at the end of a COMPRESSED record, completed in the next one with a size of 0.')
    return out


def PerfDataWith(attrs, recs):
    pd = PerfData()
    pd.attrs = attrs
    pd.event_desc = False
    pd.recs = recs
    return pd.bytes()


def write_bad(d):
    import os
    os.makedirs(d, exist_ok=True)
    for name, (b, _) in bad_cases().items():
        with open(os.path.join(d, name + '.data'), 'wb') as f:
            f.write(b)


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
