#!/usr/bin/env python3
"""Turn the bench_hwmon KUnit logs of both cores into build/bench/hwmon.json.

  bench-hwmon.py --ours LOG --stock LOG --out JSON [--print]

Each log must hold the lines kunit/hwmon_bench.c prints:
  bench-hwmon: <key>=<median> min=<min> max=<max> runs=<runs>
"""

import argparse
import json
import os
import re
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
    ("reg_unreg_ns_1", "register+unregister ns, 1 temp ch", 1.0),
    ("reg_unreg_ns_16", "register+unregister ns, 16 temp ch", 1.0),
    ("reg_unreg_ns_256", "register+unregister ns, 256 temp ch", 1.0),
    ("read_ns", "ns per attribute read (sysfs)", None),
]


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--stock", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--print", action="store_true")
    args = ap.parse_args()

    raw = {"ours": parse(args.ours), "stock": parse(args.stock)}
    rows = []
    for key, name, target in METRICS:
        o = raw["ours"][key]["median"]
        s = raw["stock"][key]["median"]
        ratio = round(o / s, 3) if s else None
        # Minima: what is left once host noise (TCG on a shared machine) is
        # taken out; the medians of the two boots can drift apart.
        omin = raw["ours"][key]["min"]
        smin = raw["stock"][key]["min"]
        ratio_min = round(omin / smin, 3) if smin else None
        met = "-"
        if target is not None:
            met = "met" if ratio is not None and ratio <= target else "MISSED"
        rows.append({"metric": key, "ours": o, "stock": s, "ratio": ratio,
                     "ratio_of_min": ratio_min,
                     "target": f"<= {target}" if target is not None else "-",
                     "met": met})
    res = {"description": {k: n for k, n, _ in METRICS},
           "rows": rows, "raw": raw,
           "logs": {"ours": args.ours, "stock": args.stock}}
    with open(args.out + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(args.out + ".tmp", args.out)
    if args.print:
        print("\n== hwmon core (KUnit-hosted, medians; ratio = ours/stock) ==")
        cols = list(rows[0])
        print("  ".join(f"{c:>22}" for c in cols))
        for r in rows:
            print("  ".join(f"{str(r[c]):>22}" for c in cols))
    print(f"bench-hwmon: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
