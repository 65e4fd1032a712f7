#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz_blockrange.c into check-tests/fuzz/blockrange-corpus/.

Each input is: one byte choosing the address space (0: 64 addresses from 1,
1: the 64 addresses up to UINT64_MAX, 2: 64 addresses at 0x400000, 3: wide
cells over [1, UINT64_MAX]), then operations (see LLVMFuzzerTestOneInput):
  op%12 in 0..2  count_block  a len owner/pred (cells a..a+len%8, or
                 a..a+len%64 if len >= 192; owner o%8, pred (o>>3)%3)
  3              create       a len
  4              invalid block a len (op/12 bit 0: start 0, bit 1: create)
  5              find         cell how
  6              span         cell how cell how
  7              branch stack nr, nr x (flags from to)
  8              figures      cell how
  9              fail the k-th next allocation (op/12 bit 0: for good)
  10             stop failing
  11             new context  space
Deterministic: rerunning rewrites the same files.
"""
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blockrange-corpus")


def count(r, short=True):
    return [r.choice([0, 1, 2]), r.randrange(256),
            r.randrange(192) if short else r.randrange(192, 256),
            r.randrange(256)]


def create(r):
    return [3, r.randrange(256), r.randrange(256)]


def stack(r, nr):
    out = [7, nr]
    for _ in range(nr):
        out += [r.randrange(256), r.randrange(256), r.randrange(256)]
    return out


def mixed(seed, space, nops):
    r = random.Random(seed)
    data = [space]
    for _ in range(nops):
        k = r.randrange(100)
        if k < 40:
            data += count(r, r.randrange(10) != 0)
        elif k < 50:
            data += create(r)
        elif k < 55:
            data += [4 + 12 * r.randrange(4), r.randrange(256),
                     r.randrange(256)]
        elif k < 65:
            data += [5, r.randrange(256), r.randrange(256)]
        elif k < 72:
            data += [6] + [r.randrange(256) for _ in range(4)]
        elif k < 82:
            data += stack(r, r.randrange(2, 33))
        elif k < 92:
            data += [8, r.randrange(256), r.randrange(256)]
        elif k < 96:
            data += [9 + 12 * r.randrange(2), r.randrange(4)]
        else:
            data += [10]
    return bytes(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    inputs = {}
    for space in range(4):
        name = ["low", "high", "mid", "wide"][space]
        inputs["mixed-%s-short" % name] = mixed(100 + space, space, 40)
        inputs["mixed-%s-long" % name] = mixed(200 + space, space, 400)
    r = random.Random(7)
    # The seed's situations in order on the low space (cell c is address
    # c + 1): empty tree, hole before, head add, split of a head, exact
    # match, split tail, tail add, one block covering all with holes,
    # single instruction; then figures, and a span over everything.
    inputs["situations"] = bytes([0,
        0, 20, 7, 9,       # cells 20..27 on an empty tree
        0, 2, 3, 9,        # 2..5: hole before
        0, 15, 7, 9,       # 15..22: head add
        0, 24, 3, 9,       # 24..27: split of an existing head
        0, 24, 3, 17,      # exact match
        0, 24, 1, 17,      # 24..25: split tail
        0, 26, 7, 1,       # 26..33: tail add
        0, 1, 255, 2,      # 1..63: hole fills, covers many ranges
        0, 40, 0, 3,       # single instruction
        8, 24, 0, 8, 26, 1, 8, 30, 2, 8, 40, 0,
        6, 0, 0, 63, 1])
    # Whole wide space, then its first and last cells.
    inputs["wide-extremes"] = bytes([3, 0, 0, 255, 1, 0, 36, 0, 2,
                                     0, 0, 0, 3, 8, 36, 1, 8, 0, 0,
                                     5, 36, 1, 6, 35, 1, 36, 3])
    # Allocation failures at each of the first allocations, one-shot and
    # sticky, interleaved with new owners (owner table growth).
    fail = [2]
    for k in range(4):
        fail += [9, k] + count(r) + [10] + count(r)
        fail += [9 + 12, k] + count(r) + create(r) + stack(r, 5) + [10]
    for o in range(8):
        fail += [0, r.randrange(256), 3, o]
    inputs["alloc-failures"] = bytes(fail)
    # Branch stacks with aborts, in_tx, zero addresses, predicted flags.
    st = [0]
    for n in (2, 3, 8, 16, 32, 39):
        st += stack(r, n)
    st += [8, 5, 0, 8, 5, 1, 9, 1] + stack(r, 20) + [10]
    inputs["stacks"] = bytes(st)
    # The batch side's strategies: hot blocks on two cells (hashed, then
    # compacted in the small aggregates' partitions), blocks all over the
    # space (appended), the hot ones again, long stacks.
    rb = random.Random(9)
    bp = [2]
    for phase in range(3):
        for _ in range(300):
            cell = 10 + rb.randrange(2) if phase != 1 else rb.randrange(64)
            bp += [rb.choice([0, 1, 2]), cell, rb.randrange(8),
                   rb.randrange(256)]
        bp += stack(rb, 39)
    inputs["batch-strategies"] = bytes(bp)
    # Resets between spaces.
    inputs["resets"] = bytes([1] + count(r) + [11, 3] + count(r) +
                             [11, 0] + create(r) + [11, 2] + stack(r, 6))
    for name, data in sorted(inputs.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print("wrote %d inputs to %s" % (len(inputs), OUT))


if __name__ == "__main__":
    main()
