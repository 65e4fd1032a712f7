# SPDX-License-Identifier: GPL-2.0
"""The writer side of perf.data, for the reader's tests (gen_perfdata.py).

An independent implementation, from the kernel's
tools/perf/Documentation/perf.data-file-format.txt and <linux/perf_event.h>
only: the record, attr and feature constants, one function per record
type, and PerfData, which lays out a whole file (file or pipe mode, either
byte order).
"""
import ctypes
import ctypes.util
import struct


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
