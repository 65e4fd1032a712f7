#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Large perf.data inputs for the benchmarks, made from a small recording.

  pdrepl.py IN.data OUT.data --min-bytes N   file mode, >= N bytes
  pdrepl.py IN.data - --copies K --pipe      pipe mode on stdout (streaming)

--stats: print {"copies": K, "bytes": N} (what was written) as one JSON
line on stderr at the end.

IN is a little-endian file-mode perf.data (what `blockrange record` writes).
OUT holds IN's side-band records (mmap, comm, fork, ...) once, then IN's
samples K times, each copy's timestamps shifted past the previous copy's,
with IN's FINISHED_ROUND records and one after each copy: the same program
run K times in a row as one recording.  Features (build-ids, event names, ...) are kept; in pipe
mode the attrs and ids go out as HEADER_ATTR records and the event names as
a HEADER_FEATURE record, the way perf writes a pipe.
"""

import argparse
import json
import os
import struct
import sys

MAGIC = b"PERFILE2"
HDR = struct.Struct("<QQQ QQ QQ QQ 4Q")  # 104 bytes
PERF_RECORD_SAMPLE = 9
FINISHED_ROUND = 68
HEADER_ATTR = 64
HEADER_FEATURE = 80
FEAT_EVENT_DESC = 12
S_IDENTIFIER, S_IP, S_TID, S_TIME = 1 << 16, 1, 2, 4


def parse(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:8] != MAGIC:
        raise SystemExit(f"pdrepl: {path}: not a little-endian file-mode perf.data")
    (_, hsize, attr_size, aoff, alen, doff, dlen, _, _,
     f0, f1, f2, f3) = HDR.unpack_from(b, 0)
    attrs = []
    for p in range(aoff, aoff + alen, attr_size):
        attr = b[p:p + attr_size - 16]
        ioff, ilen = struct.unpack_from("<QQ", b, p + attr_size - 16)
        attrs.append((attr, b[ioff:ioff + ilen]))
    sample_type = struct.unpack_from("<Q", attrs[0][0], 24)[0]
    if not sample_type & S_TIME:
        raise SystemExit(f"pdrepl: {path}: samples without PERF_SAMPLE_TIME")
    toff = 8 + 8 * bool(sample_type & S_IDENTIFIER) + \
        8 * bool(sample_type & S_IP) + 8 * bool(sample_type & S_TID)
    side, body = [], []
    p, end = doff, doff + dlen
    tmin, tmax = None, 0
    while p < end:
        typ, _misc, size = struct.unpack_from("<IHH", b, p)
        rec = b[p:p + size]
        if typ == PERF_RECORD_SAMPLE:
            t = struct.unpack_from("<Q", rec, toff)[0]
            tmin = t if tmin is None else min(tmin, t)
            tmax = max(tmax, t)
            body.append(rec)
        elif typ == FINISHED_ROUND:
            body.append(rec)
        else:
            side.append(rec)
        p += size
    flags = [f0, f1, f2, f3]
    nfeat = sum(bin(x).count("1") for x in flags)
    feats = []
    fp = doff + dlen
    for i in range(nfeat):
        o, s = struct.unpack_from("<QQ", b, fp + 16 * i)
        feats.append(b[o:o + s])
    return {"attrs": attrs, "attr_size": attr_size, "side": side,
            "body": body, "toff": toff, "span": (tmax - (tmin or 0)) + 1,
            "flags": flags, "feats": feats}


ROUND = struct.pack("<IHH", FINISHED_ROUND, 0, 8)


def samples(pd, copies):
    """The data records: side-band once, then the body, shifted per copy,
    each copy ending with a FINISHED_ROUND (as perf writes one per drain
    of its buffers), so that a reader sorting by time holds two copies at
    most."""
    yield b"".join(pd["side"])
    toff, span = pd["toff"], pd["span"]
    for k in range(copies):
        if k == 0:
            yield b"".join(pd["body"]) + ROUND
            continue
        out = []
        for rec in pd["body"]:
            if struct.unpack_from("<I", rec, 0)[0] == PERF_RECORD_SAMPLE:
                r = bytearray(rec)
                t = struct.unpack_from("<Q", r, toff)[0]
                struct.pack_into("<Q", r, toff, t + k * span)
                rec = bytes(r)
            out.append(rec)
        out.append(ROUND)
        yield b"".join(out)


def write_file(pd, out, copies):
    attr_size = pd["attr_size"]
    hsize = HDR.size
    ids = b"".join(i for _, i in pd["attrs"])
    ids_off = hsize
    aoff = ids_off + len(ids)
    alen = attr_size * len(pd["attrs"])
    doff = aoff + alen
    with open(out, "wb") as f:
        f.write(b"\0" * hsize)
        f.write(ids)
        io = ids_off
        for attr, i in pd["attrs"]:
            f.write(attr + struct.pack("<QQ", io, len(i)))
            io += len(i)
        dlen = 0
        for chunk in samples(pd, copies):
            f.write(chunk)
            dlen += len(chunk)
        table = doff + dlen
        fo = table + 16 * len(pd["feats"])
        for feat in pd["feats"]:
            f.write(struct.pack("<QQ", fo, len(feat)))
            fo += len(feat)
        for feat in pd["feats"]:
            f.write(feat)
        f.seek(0)
        f.write(HDR.pack(0x32454c4946524550, hsize, attr_size, aoff, alen,
                         doff, dlen, 0, 0, *pd["flags"]))
    return doff + dlen


def feature_bit_index(flags, bit):
    """Which feature section holds @bit (sections are in bit order)."""
    n = 0
    for b in range(bit):
        if flags[b // 64] >> (b % 64) & 1:
            n += 1
    return n if flags[bit // 64] >> (bit % 64) & 1 else None


def write_pipe(pd, f, copies):
    """Returns the bytes written."""
    n = 0

    def put(b):
        nonlocal n
        f.write(b)
        n += len(b)
    put(MAGIC + struct.pack("<Q", 16))
    for attr, ids in pd["attrs"]:
        body = attr + ids
        put(struct.pack("<IHH", HEADER_ATTR, 0, 8 + len(body)) + body)
    i = feature_bit_index(pd["flags"], FEAT_EVENT_DESC)
    if i is not None:
        body = struct.pack("<Q", FEAT_EVENT_DESC) + pd["feats"][i]
        put(struct.pack("<IHH", HEADER_FEATURE, 0, 8 + len(body)) + body)
    for chunk in samples(pd, copies):
        put(chunk)
    f.flush()
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--min-bytes", type=int)
    ap.add_argument("--copies", type=int)
    ap.add_argument("--pipe", action="store_true")
    ap.add_argument("--stats", action="store_true")
    a = ap.parse_args()
    pd = parse(a.input)
    body = sum(len(r) for r in pd["body"])
    copies = a.copies or max(1, -(-(a.min_bytes or 0) // max(body, 1)))
    if a.pipe:
        out = sys.stdout.buffer if a.output == "-" else open(a.output, "wb")
        try:
            size = write_pipe(pd, out, copies)
        except BrokenPipeError:
            # the reader stopped before the end: not a complete stream
            print("pdrepl: the reader closed the pipe", file=sys.stderr)
            os._exit(1)
    else:
        write_file(pd, a.output + ".tmp", copies)
        os.replace(a.output + ".tmp", a.output)
        size = os.path.getsize(a.output)
        print(f"bench: {a.output}: {copies} copies of the samples of "
              f"{a.input}, {size / 1e6:.0f} MB", file=sys.stderr)
    if a.stats:
        print(json.dumps({"copies": copies, "bytes": size}), file=sys.stderr)


if __name__ == "__main__":
    main()
