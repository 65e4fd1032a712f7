#!/usr/bin/env python3
"""Turn the bench_hwmon KUnit logs of both cores into build/bench/hwmon.json.

  bench-hwmon.py --dir DIR --boots N --out JSON [--print] KERNEL...

DIR holds hwmon-<kernel>-<core>-<n>.log for n = 1..N (scripts/bench-hwmon.sh
boots the two cores of a tree alternately, round n being one boot of each,
in ABBA order), hwmon-<kernel>-<core>-<n>.load (the load average when the
boot started) and, when the counts kernels ran, hwmon-<kernel>-<core>-
counts.log and hwmon-<kernel>-<core>-icount.log (the boots under QEMU's
-icount shift=0, whose times are guest instruction counts). The logs hold
the lines kunit/hwmon_bench.c prints:
  bench-hwmon: <key>=<median> min=<min> max=<max> runs=<runs> [q1=.. q3=..]
  bench-hwmon-count: <half>_<size> <name>=<value> ...

Method (per tree and timed figure):
  - each boot's figure is the median of its interleaved repetitions;
  - round i gives the paired ratio r_i = ours_i / stock_i;
  - the reported ratio is the median of the r_i, with a distribution-free
    confidence interval for that median: [r_(k), r_(n+1-k)] of the sorted
    ratios, k the largest rank whose coverage 1 - 2 P(B <= k - 1), B ~
    Binomial(n, 1/2), is at least 90 % (the coverage is printed; with 8
    rounds it is [r_(2), r_(7)] at 93.0 %, with 5 rounds [min, max] at
    93.8 %). It assumes only that the rounds are independent draws of the
    same ratio distribution; a ratio <= 1.0 target applies to the median.
Memory figures repeat within 1 % from boot to boot; they are paired the
same way. Instruction counts (-icount) repeat within 1 %: the median of the
boot's repetitions, one boot per core. Counts are taken from the counts
kernels when they ran (else from the first round's boots) and printed for
both cores with their ratio, per operation (both halves added; vmalloc
pages: those the registration took).
"""

import argparse
import json
import math
import os
import re
import statistics
import sys

LINE = re.compile(r"bench-hwmon: (\w+)=(-?\d+) min=(-?\d+) max=(-?\d+) "
                  r"runs=(\d+)")
COUNT = re.compile(r"bench-hwmon-count: (\w+) (.*)$")
PAIR = re.compile(r"(\w+)=(-?\d+)(?:\.\.(-?\d+))?")

SIZES = (1, 16, 256, 1024)
OPS = (("reg_unreg", "register + unregister"),
       ("reg_parent", "parent + register + unregister + parent removal"))

# (key, description, target on ours/stock or None, paired across cores)
METRICS = [
    ("attrs_all1", "attribute files, all-types chip, 1 channel per type", None, False),
    ("attrs_all4", "attribute files, all-types chip, 4 channels per type", None, False),
    ("bytes_per_device_all1", "bytes per device (all types, 1 channel)", None, True),
    ("bytes_per_device_all4", "bytes per device (all types, 4 channels)", None, True),
    ("bytes_per_attr", "bytes per attribute", 0.82, True),
    ("bytes_per_file_floor", "bytes per file of sysfs alone (no core)", None, False),
]
for _size in SIZES:
    METRICS.append((f"files_{_size}", f"attribute files, {_size} channels over all types",
                    None, False))
    for _op, _name in OPS:
        METRICS.append((f"{_op}_ns_{_size}", f"{_name}, {_size} channels (ns)",
                        1.0, True))
METRICS.append(("read_ns", "sysfs read of one attribute (ns)", None, True))

# The counted halves of the two operations, and the counts printed, in this
# order (the others in the log are kept in the JSON).
HALVES = ["register", "unregister", "parent_register", "parent_unregister"]
COUNTS = ["slab_allocs", "slab_bytes", "frees", "vmalloc_pages",
          "kernfs_nodes", "is_visible", "mutex_lock", "down_read",
          "down_write", "kernfs_find_ns"]


def die(msg):
    sys.exit(f"bench-hwmon: {msg}")


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return f.readlines()
    except OSError as e:
        die(f"{path}: {e.strerror}")


def parse(path):
    vals = {}
    for no, line in enumerate(read_lines(path), 1):
        m = LINE.search(line)
        if m:
            med, lo, hi, runs = (int(x) for x in m.group(2, 3, 4, 5))
            vals[m.group(1)] = {"median": med, "min": lo, "max": hi,
                                "runs": runs, "line": no}
    missing = [k for k, _, _, _ in METRICS if k not in vals]
    if missing:
        die(f"{path}: no 'bench-hwmon: {missing[0]}=...' line (expected one "
            f"per figure: {', '.join(k for k, _, _, _ in METRICS)}); did the "
            f"bench_hwmon suite run and pass?")
    return vals


def parse_counts(path):
    counts = {}
    for no, line in enumerate(read_lines(path), 1):
        m = COUNT.search(line)
        if not m:
            continue
        fields = {}
        for name, lo, hi in PAIR.findall(m.group(2)):
            # the runs may differ by the odd radix-tree node an IDR
            # allocates when it grows: keep the smallest, note the spread
            fields[name] = int(lo)
            if hi and hi != lo:
                fields[name + "_max"] = int(hi)
        counts[m.group(1)] = fields
    want = [f"{h}_{s}" for s in SIZES for h in HALVES]
    missing = [k for k in want if k not in counts]
    if missing:
        die(f"{path}: no 'bench-hwmon-count: {missing[0]} ...' line (expected "
            f"one per operation and size); did bench_hwmon_count run and pass?")
    return counts


def read_load(path):
    try:
        with open(path) as f:
            return [float(x) for x in f.read().split()[:3]]
    except (OSError, ValueError):
        return None


def binom_cdf(k, n):
    """P(B <= k) for B ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(0, k + 1)) / 2 ** n


def median_ci(values, level=0.90):
    """Distribution-free interval for the median: (low, high, coverage)."""
    v = sorted(values)
    n = len(v)
    if n == 0:
        return None, None, None
    best = 1
    for k in range(1, n // 2 + 1):
        if 1 - 2 * binom_cdf(k - 1, n) >= level:
            best = k
    cover = 1 - 2 * binom_cdf(best - 1, n)
    return v[best - 1], v[n - best], cover


def rnd(x, digits=3):
    return None if x is None else round(x, digits)


ICOUNT_KEYS = [f"{op}_{part}ns_{s}" for s in SIZES for op, _ in OPS
               for part in ("", "first_half_")]


def parse_icount(path):
    vals = {}
    for line in read_lines(path):
        m = LINE.search(line)
        if m:
            vals[m.group(1)] = int(m.group(2))
    missing = [k for k in ICOUNT_KEYS if k not in vals]
    if missing:
        die(f"{path}: no 'bench-hwmon: {missing[0]}=...' line; did "
            f"bench_hwmon_register run and pass under -icount?")
    return vals


def op_count(counts, halves, size, name):
    """A count of one operation: its two halves added, vmalloc pages the
    registration's; None where the kernel could not count it (-1)."""
    vals = [counts[f"{h}_{size}"].get(name) for h in halves]
    if name == "vmalloc_pages":
        return vals[0]
    if any(v is None or v < 0 for v in vals):
        return None
    return sum(vals)


def row_of(kernel, metric, ours, stock):
    return {"kernel": kernel, "metric": metric, "ours": ours, "stock": stock,
            "ratio": rnd(ours / stock) if stock else None,
            "ci_low": None, "ci_high": None, "ci_cover": None,
            "target": "-", "met": "-"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--boots", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--print", action="store_true")
    ap.add_argument("kernels", nargs="+")
    args = ap.parse_args()
    if args.boots < 1:
        die("--boots must be >= 1")

    rows, raw, loads, count_src = [], {}, {}, {}
    for k in args.kernels:
        boots = {c: [parse(os.path.join(args.dir, f"hwmon-{k}-{c}-{i}.log"))
                     for i in range(1, args.boots + 1)]
                 for c in ("ours", "stock")}
        raw[k] = {"boots": boots}
        ld = [read_load(os.path.join(args.dir, f"hwmon-{k}-{c}-{i}.load"))
              for c in ("ours", "stock") for i in range(1, args.boots + 1)]
        ld = [x[0] for x in ld if x]
        loads[k] = [min(ld), max(ld)] if ld else None
        for key, name, target, paired in METRICS:
            o = [b[key]["median"] for b in boots["ours"]]
            s = [b[key]["median"] for b in boots["stock"]]
            row = {"kernel": k, "metric": key,
                   "ours": statistics.median(o), "stock": statistics.median(s),
                   "ratio": None, "ci_low": None, "ci_high": None,
                   "ci_cover": None}
            if paired:
                ratios = [x / y for x, y in zip(o, s) if y]
                if ratios:
                    lo, hi, cover = median_ci(ratios)
                    row.update(ratio=rnd(statistics.median(ratios)),
                               ci_low=rnd(lo), ci_high=rnd(hi),
                               ci_cover=rnd(cover))
            met = "-"
            if target is not None:
                met = ("met" if row["ratio"] is not None and
                       row["ratio"] <= target else "MISSED")
            row.update(target=f"<= {target}" if target is not None else "-",
                       met=met)
            rows.append(row)

        # instruction counts: the -icount boots, when they ran
        icount = {}
        for c in ("ours", "stock"):
            path = os.path.join(args.dir, f"hwmon-{k}-{c}-icount.log")
            if os.path.exists(path):
                icount[c] = parse_icount(path)
        raw[k]["icount"] = icount
        if len(icount) == 2:
            for key in ICOUNT_KEYS:
                o, st = icount["ours"][key], icount["stock"][key]
                rows.append(row_of(k, f"instructions {key}", o, st))

        # counts: the counts kernels if they ran, else round 1
        counts = {}
        for c in ("ours", "stock"):
            path = os.path.join(args.dir, f"hwmon-{k}-{c}-counts.log")
            if not os.path.exists(path):
                path = os.path.join(args.dir, f"hwmon-{k}-{c}-1.log")
            counts[c] = parse_counts(path)
            count_src.setdefault(k, {})[c] = os.path.basename(path)
        raw[k]["counts"] = counts
        for size in SIZES:
            for op, halves in (("reg_unreg", ("register", "unregister")),
                               ("reg_parent", ("parent_register",
                                               "parent_unregister"))):
                for name in COUNTS:
                    o = op_count(counts["ours"], halves, size, name)
                    st = op_count(counts["stock"], halves, size, name)
                    if o is None or st is None:
                        continue	# not counted on this kernel
                    rows.append(row_of(k, f"count {op}_{size} {name}", o, st))

    res = {"description": {k: n for k, n, _, _ in METRICS},
           "method": f"{args.boots} boots per core and tree in ABBA order, "
                     "each boot's time figure the median of its interleaved "
                     "repetitions; ratio = median of the per-round ratios "
                     "ours/stock; [ci_low, ci_high] = distribution-free "
                     "order-statistic interval of that median, coverage "
                     "ci_cover; counts from the counts kernels "
                     "(function tracer) or round 1",
           "load_1min": loads, "count_logs": count_src,
           "rows": rows, "raw": raw}
    with open(args.out + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(args.out + ".tmp", args.out)
    if args.print:
        print_table(res, args.boots)
    print(f"bench-hwmon: wrote {args.out}", file=sys.stderr)


def num(x):
    return f"{x:.0f}" if isinstance(x, float) else str(x)


def print_table(res, boots):
    rows = res["rows"]
    print(f"\n== hwmon core (KUnit-hosted): {boots} rounds of ABBA boots; "
          "ratio = median of per-round ratios ours/stock [order-statistic "
          "interval, coverage] ==")
    for k, ld in res["load_1min"].items():
        if ld:
            print(f"   {k}: 1-minute load average at the boots "
                  f"{ld[0]:.1f} to {ld[1]:.1f}")
    fmt = "{:>5}  {:<44} {:>12} {:>12} {:>6} {:>22} {:>7} {:>6}"
    print(fmt.format("tree", "figure", "ours", "stock", "ratio",
                     "interval", "target", "met"))
    for r in rows:
        if r["metric"].startswith(("count ", "instructions ")):
            continue
        ci = "-"
        if r["ci_low"] is not None:
            ci = (f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] "
                  f"{100 * r['ci_cover']:.1f}%")
        print(fmt.format(r["kernel"], r["metric"][:44], num(r["ours"]),
                         num(r["stock"]),
                         "-" if r["ratio"] is None else f"{r['ratio']:.3f}",
                         ci, r["target"], r["met"]))

    ins = [r for r in rows if r["metric"].startswith("instructions ")]
    if ins:
        print("\n== guest instructions per operation (QEMU -icount, one boot "
              "per core; first_half: the registration alone) ==")
        fmt = "{:>5}  {:<44} {:>12} {:>12} {:>6}"
        print(fmt.format("tree", "operation", "ours", "stock", "ratio"))
        for r in ins:
            print(fmt.format(r["kernel"], r["metric"][13:], num(r["ours"]),
                             num(r["stock"]), f"{r['ratio']:.3f}"))

    cnt = [r for r in rows if r["metric"].startswith("count ")]
    if cnt:
        print("\n== counts per operation, ours/stock (counts kernels: "
              + ", ".join(f"{k}: {v['ours']}" for k, v in
                          res["count_logs"].items()) + ") ==")
        names = [n for n in COUNTS if any(r["metric"].endswith(" " + n)
                                          for r in cnt)]
        table = {}
        for r in cnt:
            _, op, name = r["metric"].split(" ")
            table.setdefault((r["kernel"], op), {})[name] = r
        head = "{:>5}  {:<16}" + " {:>17}" * len(names)
        print(head.format("tree", "operation", *names))
        for (k, op), cells in table.items():
            vals = [f"{cells[n]['ours']}/{cells[n]['stock']}" if n in cells
                    else "-" for n in names]
            print(head.format(k, op, *vals))


if __name__ == "__main__":
    main()
