#!/usr/bin/env python3
"""Turn the bench_hwmon KUnit logs of both cores into build/bench/hwmon.json.

  bench-hwmon.py --dir DIR --boots N --out JSON [--print] KERNEL...

DIR holds hwmon-<kernel>-<core>-<n>.log for n = 1..N (scripts/bench-hwmon.sh
boots the two cores of a tree alternately, round n being one boot of each).
Each log must hold the lines kunit/hwmon_bench.c prints:
  bench-hwmon: <key>=<median> min=<min> max=<max> runs=<runs>

Per tree and figure the result has: the median over the boots of each
core's per-boot median; the median and the minimum of the per-round ratios
ours/stock; and the ratio of the two cores' minima over all boots. A target
applies to the median of the per-round ratios.
"""

import argparse
import json
import os
import re
import statistics
import sys

LINE = re.compile(r"bench-hwmon: (\w+)=(-?\d+) min=(-?\d+) max=(-?\d+) "
                  r"runs=(\d+)")

# (key, metric name, target on ours/stock or None)
METRICS = [
    ("attrs_all1", "attributes, all-types chip, 1 channel", None),
    ("attrs_all4", "attributes, all-types chip, 4 channels", None),
    ("bytes_per_device_all1", "bytes/device (all types, 1 ch)", None),
    ("bytes_per_device_all4", "bytes/device (all types, 4 ch)", None),
    ("bytes_per_attr", "bytes/attribute", 0.5),
    ("bytes_per_file_floor", "bytes/file of sysfs alone (no core)", None),
    ("reg_unreg_ns_1", "register+unregister ns, 1 temp ch", 1.0),
    ("reg_unreg_ns_16", "register+unregister ns, 16 temp ch", 1.0),
    ("reg_unreg_ns_256", "register+unregister ns, 256 temp ch", 1.0),
    ("reg_parent_ns_1", "parent + register + unregister + parent removal ns, 1 ch", None),
    ("reg_parent_ns_16", "the same, 16 temp ch", None),
    ("reg_parent_ns_256", "the same, 256 temp ch", None),
    ("read_ns", "ns per attribute read (sysfs)", None),
]
# Figures that are the same for both cores by construction (no ratio).
SHARED = {"bytes_per_file_floor"}


def parse(path):
    try:
        with open(path, errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f"bench-hwmon: {path}: {e.strerror}")
    vals = {}
    for no, line in enumerate(lines, 1):
        m = LINE.search(line)
        if m:
            med, lo, hi, runs = (int(x) for x in m.group(2, 3, 4, 5))
            vals[m.group(1)] = {"median": med, "min": lo, "max": hi,
                                "runs": runs, "line": no}
    missing = [k for k, _, _ in METRICS if k not in vals]
    if missing:
        sys.exit(f"bench-hwmon: {path}: no 'bench-hwmon: {missing[0]}=...' "
                 f"line (expected one per figure: "
                 f"{', '.join(k for k, _, _ in METRICS)}); did the "
                 f"bench_hwmon suite run and pass?")
    return vals


def ratio(a, b):
    return round(a / b, 3) if b else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--boots", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--print", action="store_true")
    ap.add_argument("kernels", nargs="+")
    args = ap.parse_args()

    rows, raw = [], {}
    for k in args.kernels:
        boots = {c: [parse(os.path.join(args.dir, f"hwmon-{k}-{c}-{i}.log"))
                     for i in range(1, args.boots + 1)]
                 for c in ("ours", "stock")}
        raw[k] = boots
        for key, name, target in METRICS:
            o = [b[key]["median"] for b in boots["ours"]]
            s = [b[key]["median"] for b in boots["stock"]]
            paired = [x / y for x, y in zip(o, s) if y]
            omin = min(b[key]["min"] for b in boots["ours"])
            smin = min(b[key]["min"] for b in boots["stock"])
            row = {"kernel": k, "metric": key,
                   "ours": statistics.median(o), "stock": statistics.median(s)}
            if key in SHARED:
                row.update(ratio=None, ratio_min_pair=None, ratio_of_min=None)
            else:
                row.update(
                    ratio=round(statistics.median(paired), 3) if paired else None,
                    ratio_min_pair=round(min(paired), 3) if paired else None,
                    ratio_of_min=ratio(omin, smin))
            met = "-"
            if target is not None:
                met = ("met" if row["ratio"] is not None and
                       row["ratio"] <= target else "MISSED")
            row.update(target=f"<= {target}" if target is not None else "-",
                       met=met)
            rows.append(row)
    res = {"description": {k: n for k, n, _ in METRICS},
           "method": f"{args.boots} boots per core and tree, ABBA order; "
                     "ours/stock = median of the per-round ratios "
                     "(ratio_min_pair: their minimum; ratio_of_min: ratio of "
                     "the minima over all boots)",
           "rows": rows, "raw": raw}
    with open(args.out + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(args.out + ".tmp", args.out)
    if args.print:
        print("\n== hwmon core (KUnit-hosted; ratio = median of per-boot "
              "ratios ours/stock) ==")
        cols = list(rows[0])
        print("  ".join(f"{c:>15}" for c in cols))
        for r in rows:
            print("  ".join(f"{str(r[c]):>15}" for c in cols))
    print(f"bench-hwmon: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
