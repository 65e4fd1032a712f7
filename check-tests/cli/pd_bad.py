# SPDX-License-Identifier: GPL-2.0
"""The hostile perf.data corpus of gen_perfdata.py: every file is refused
by the reader with exit status 2 and the message its .expect file holds."""
import struct

from perffile import *  # noqa: F401,F403
from pd_good import *  # noqa: F401,F403



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
