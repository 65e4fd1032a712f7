#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Userspace benchmarks and the merged report.

  bench.py userspace --out build/bench [options]   parts 1-3 -> userspace.json
  bench.py report --dir build/bench                merge *.json -> results.json,
                                                   print the table
  bench.py replicate TRACE OUT [--min-bytes N]     the end-to-end input

Every figure is the median of several runs with min and max.  Times are the
process CPU time of the side being measured (primary: on these shared 2-core
machines wall time also counts the time other jobs held the core) and wall
clock (in the JSON, as *_wall).  Each comparison
runs both sides in the same invocation on the same input, interleaved (the
order rotates from one repetition to the next), and ratios are taken per
repetition before the median, so drift on this shared machine cancels out.
Nothing here asserts a timing: the run fails only when an output is wrong
(a splitter disagrees with the offline bound, or `blockrange ranges`
disagrees with llvm-profgen).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# Goals the figures are reported against (never tuned to).
TARGETS = {
    "ours_vs_perf_ndebug": (">=", 3.0),
    "ours_over_bound": ("<=", 1.5),
    "heap_bytes_per_range": ("<=", 48.0),
    "batch_vs_perf_ndebug": (">=", 3.0),
    "batch_over_bound": ("<=", 1.5),
    "ours_vs_llvm_profgen": (">=", 2.0),
}

STREAMS = [
    ("a", "10^6 random blocks over a 64 KiB text (length 1..64 B)"),
    ("b", "10^6 blocks of a recorded trace (sortsearch, depth 32, period 7)"),
    ("c", "10^5 disjoint blocks in random order = 10^5 distinct ranges"),
]

IMPLS = [
    ("ours", "libblockrange tree (incremental)"),
    ("batch", "libblockrange batch engine (aggregate, then build)"),
    ("perf_ndebug", "perf 6.1 block-range.c, -DNDEBUG (as shipped)"),
    ("perf_debug", "perf 6.1 block-range.c, asserts on (debug walk)"),
    ("bound", "offline bound (radix sort + sweep)"),
]


def stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "n": len(values)}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_splitbench(binary, stream, cap=None, repeat=None):
    cmd = [binary, stream] + (["--cap", str(cap)] if cap else []) + \
        (["--repeat", str(repeat)] if repeat else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"bench: {' '.join(cmd)} failed with status "
                         f"{p.returncode} (status 3: its ranges differ from "
                         f"the offline bound's)")
    return json.loads(p.stdout)


def per_range(r, key):
    return r[key] / r["ranges"] if r["ranges"] else None


def splitter(args):
    bins = {"ours": args.ours, "batch": args.batch,
            "perf_ndebug": args.perf_ndebug,
            "perf_debug": args.perf_debug, "bound": args.bound}
    full = ["ours", "batch", "perf_ndebug", "bound"]
    out = {}
    for sid, desc in STREAMS:
        path = os.path.join(args.streams, sid + ".blk")
        runs = {k: [] for k in bins}
        t_start = time.monotonic()
        for rep in range(args.runs):
            order = full[rep % len(full):] + full[:rep % len(full)]
            for impl in order:
                runs[impl].append(run_splitbench(bins[impl], path))
            if rep < args.debug_runs:
                runs["perf_debug"].append(
                    run_splitbench(bins["perf_debug"], path, args.debug_cap))
        res = {"description": desc, "impls": {}, "ratios": {}}
        for impl, rs in runs.items():
            if not rs:
                continue
            res["impls"][impl] = {
                "runs": len(rs),
                "blocks": stats([r["blocks"] for r in rs]),
                "stream_blocks": rs[0]["stream_blocks"],
                "capped": any(r["capped"] for r in rs),
                "seconds": stats([r["seconds"] for r in rs]),
                "cpu_seconds": stats([r["cpu_seconds"] for r in rs]),
                "blocks_per_s": stats([r["blocks"] / r["cpu_seconds"]
                                       for r in rs]),
                "blocks_per_s_wall": stats([r["blocks"] / r["seconds"]
                                            for r in rs]),
                "ranges": stats([r["ranges"] for r in rs]),
                "heap_bytes_per_range": stats(
                    [per_range(r, "heap_bytes") for r in rs]),
                "req_bytes_per_range": stats(
                    [per_range(r, "req_bytes") for r in rs]),
                "peak_rss_bytes": stats([r["rss_bytes"] for r in rs]),
                "distinct_blocks": rs[0].get("distinct_blocks"),
                "agg_bytes": stats([r.get("agg_bytes") for r in rs]),
                "verified_against_bound": (
                    None if impl == "bound"
                    else all(r["verified"] is True for r in rs)),
            }
        ours = runs["ours"]
        batch = runs["batch"]
        for suffix, key in (("", "cpu_seconds"), ("_wall", "seconds")):
            res["ratios"]["batch_vs_perf_ndebug" + suffix] = stats(
                [p[key] / o[key] for o, p in zip(batch, runs["perf_ndebug"])])
            res["ratios"]["batch_over_bound" + suffix] = stats(
                [o[key] / b[key] for o, b in zip(batch, runs["bound"])])
            res["ratios"]["batch_vs_ours" + suffix] = stats(
                [o[key] / b[key] for o, b in zip(ours, batch)])
            # Throughput ratio ours/perf = perf time / ours time (same
            # blocks); multiple of the bound = ours time / bound time.
            res["ratios"]["ours_vs_perf_ndebug" + suffix] = stats(
                [p[key] / o[key] for o, p in zip(ours, runs["perf_ndebug"])])
            res["ratios"]["ours_over_bound" + suffix] = stats(
                [o[key] / b[key] for o, b in zip(ours, runs["bound"])])
            # perf_debug may be capped (a prefix of the stream): compare
            # throughputs, blocks/s against blocks/s.
            res["ratios"]["ours_vs_perf_debug" + suffix] = stats(
                [(o["blocks"] / o[key]) / (d["blocks"] / d[key])
                 for o, d in zip(ours, runs["perf_debug"])])
        # Memory against samples: the same stream fed 10 times.
        one = batch[0]
        ten = run_splitbench(bins["batch"], path, repeat=10)
        res["batch_repeat10"] = {
            "distinct_blocks": [one["distinct_blocks"],
                                ten["distinct_blocks"]],
            "agg_bytes": [one["agg_bytes"], ten["agg_bytes"]],
            "result_bytes": [one["req_bytes"], ten["req_bytes"]],
            "peak_rss_bytes": [one["rss_bytes"], ten["rss_bytes"]],
            "verified": ten["verified"] is True,
        }
        res["wall_seconds"] = round(time.monotonic() - t_start, 1)
        out[sid] = res
        r = res["ratios"]
        log(f"bench: stream {sid}: ours/perf-NDEBUG "
            f"{r['ours_vs_perf_ndebug']['median']:.2f}x, "
            f"batch/perf-NDEBUG {r['batch_vs_perf_ndebug']['median']:.2f}x, "
            f"ours/bound {r['ours_over_bound']['median']:.2f}x, "
            f"batch/bound {r['batch_over_bound']['median']:.2f}x, "
            f"ours/perf-debug {r['ours_vs_perf_debug']['median']:.1f}x "
            f"({res['wall_seconds']} s)")
    return out


def make_e2e_input(trace, path, min_bytes):
    """Replicate the recorded samples until the file holds >= min_bytes."""
    with open(trace, "rb") as f:
        data = f.read()
    if not data:
        raise SystemExit(f"bench: {trace} is empty")
    if not data.endswith(b"\n"):
        data += b"\n"
    copies = -(-min_bytes // len(data))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        for _ in range(copies):
            f.write(data)
    os.replace(tmp, path)
    return copies


def timed(cmd, stdout_path, stderr_path):
    with open(stdout_path, "wb") as so, open(stderr_path, "wb") as se:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=so, stderr=se)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        with open(stderr_path, "rb") as f:
            sys.stderr.write(f.read().decode(errors="replace")[-2000:])
        raise SystemExit(f"bench: {' '.join(cmd)} failed with status "
                         f"{p.returncode}")
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime,
            "rss": ru.ru_maxrss * 1024}


def e2e(args):
    size = os.path.getsize(args.e2e_input)
    mb = size / 1e6
    # Warm the page cache so that neither side pays the disk.
    with open(args.e2e_input, "rb") as f:
        while f.read(1 << 24):
            pass
    o_out = os.path.join(args.out, "e2e.ours.txt")
    l_out = os.path.join(args.out, "e2e.llvm.txt")
    err = os.path.join(args.out, "e2e.stderr")
    ours_cmd = [args.cli, "ranges", "--perfscript", args.e2e_input,
                "--binary", args.workload]
    llvm_cmd = [args.llvm_profgen, "--format=text",
                "--perfscript=" + args.e2e_input, "--binary=" + args.workload,
                "--output=" + l_out, "--skip-symbolization"]
    runs = {"ours": [], "llvm": []}
    for rep in range(args.e2e_runs):
        sides = [("ours", ours_cmd, o_out), ("llvm", llvm_cmd, os.devnull)]
        if rep % 2:
            sides.reverse()
        for name, cmd, so in sides:
            runs[name].append(timed(cmd, so, err))
        with open(o_out, "rb") as a, open(l_out, "rb") as b:
            if a.read() != b.read():
                raise SystemExit(f"bench: {o_out} and {l_out} differ: "
                                 "blockrange ranges disagrees with "
                                 "llvm-profgen")
    with open(o_out, "rb") as f:
        nranges = int(f.readline())
    res = {"input_bytes": size, "input_mb": round(mb, 1),
           "copies": args.e2e_copies, "outputs_identical": True,
           "output_ranges": nranges}
    for name, rs in runs.items():
        res[name] = {"runs": len(rs),
                     "wall_seconds": stats([r["wall"] for r in rs]),
                     "cpu_seconds": stats([r["cpu"] for r in rs]),
                     "mb_per_s": stats([mb / r["cpu"] for r in rs]),
                     "mb_per_s_wall": stats([mb / r["wall"] for r in rs]),
                     "peak_rss_bytes": stats([r["rss"] for r in rs])}
    res["ratios"] = {
        "ours_vs_llvm_profgen": stats(
            [l["cpu"] / o["cpu"] for o, l in zip(runs["ours"], runs["llvm"])]),
        "ours_vs_llvm_profgen_wall": stats(
            [l["wall"] / o["wall"] for o, l in zip(runs["ours"], runs["llvm"])]),
    }
    log(f"bench: end to end on {mb:.0f} MB: ours "
        f"{res['ours']['mb_per_s']['median']:.0f} MB/CPU-s, llvm-profgen "
        f"{res['llvm']['mb_per_s']['median']:.0f} MB/CPU-s, ratio "
        f"{res['ratios']['ours_vs_llvm_profgen']['median']:.2f}x")
    return res


def verdict(key, value):
    op, target = TARGETS[key]
    met = value >= target if op == ">=" else value <= target
    return {"target": f"{op} {target:g}", "met": met}


def cmd_userspace(args):
    t0 = time.monotonic()
    args.e2e_copies = (os.path.getsize(args.e2e_input)
                       // max(1, os.path.getsize(args.trace)))
    res = {"kind": "userspace",
           "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "machine": {"nproc": os.cpu_count(),
                       "loadavg_start": os.getloadavg()[0]},
           "runs": {"splitter": args.runs, "perf_debug": args.debug_runs,
                    "perf_debug_cap_s": args.debug_cap,
                    "end_to_end": args.e2e_runs},
           "splitter": splitter(args),
           "end_to_end": e2e(args)}
    checks = {}
    for sid in ("a", "b"):
        r = res["splitter"][sid]["ratios"]["ours_vs_perf_ndebug"]["median"]
        checks[f"splitter_vs_perf_ndebug_{sid}"] = {
            "value": r, **verdict("ours_vs_perf_ndebug", r)}
    for sid, _ in STREAMS:
        r = res["splitter"][sid]["ratios"]["ours_over_bound"]["median"]
        checks[f"splitter_over_bound_{sid}"] = {
            "value": r, **verdict("ours_over_bound", r)}
    b = res["splitter"]["c"]["impls"]["ours"]["heap_bytes_per_range"]["median"]
    checks["bytes_per_range_c"] = {"value": b,
                                   **verdict("heap_bytes_per_range", b)}
    for sid, _ in STREAMS:
        sp = res["splitter"][sid]
        r = sp["ratios"]["batch_vs_perf_ndebug"]["median"]
        checks[f"batch_vs_perf_ndebug_{sid}"] = {
            "value": r, **verdict("batch_vs_perf_ndebug", r)}
        r = sp["ratios"]["batch_over_bound"]["median"]
        checks[f"batch_over_bound_{sid}"] = {
            "value": r, **verdict("batch_over_bound", r)}
        b = sp["impls"]["batch"]["heap_bytes_per_range"]["median"]
        checks[f"batch_bytes_per_range_{sid}"] = {
            "value": b, **verdict("heap_bytes_per_range", b)}
    r = res["end_to_end"]["ratios"]["ours_vs_llvm_profgen"]["median"]
    checks["ranges_vs_llvm_profgen"] = {"value": r,
                                        **verdict("ours_vs_llvm_profgen", r)}
    res["targets"] = checks
    res["machine"]["loadavg_end"] = os.getloadavg()[0]
    res["wall_seconds"] = round(time.monotonic() - t0, 1)
    path = os.path.join(args.out, "userspace.json")
    with open(path + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(path + ".tmp", path)
    log(f"bench: wrote {path} ({res['wall_seconds']} s)")
    if args.print:
        print_userspace(res)


# ---- the table -------------------------------------------------------------

def fmt_stat(s, scale=1.0, prec=2, unit=""):
    if not s:
        return "-"
    return (f"{s['median'] * scale:.{prec}f}{unit} "
            f"[{s['min'] * scale:.{prec}f}..{s['max'] * scale:.{prec}f}]")


def fmt_rate(s):
    """Blocks/s with a unit that keeps three digits: 1.23M, 456k, 3.4k."""
    if not s:
        return "-"
    m = s["median"]
    scale, unit = (1e-6, "M") if m >= 1e6 else (1e-3, "k")
    prec = 2 if m * scale < 10 else 1 if m * scale < 100 else 0
    return (f"{m * scale:.{prec}f}{unit} [{s['min'] * scale:.{prec}f}.."
            f"{s['max'] * scale:.{prec}f}]")


def print_userspace(res):
    print()
    print("== Splitter: blocks per CPU second (median [min..max]), memory ==")
    print("stream  implementation   blocks/s                ranges   "
          "B/range heap (req)  peak RSS MiB")
    for sid, desc in STREAMS:
        s = res["splitter"][sid]
        for impl, _ in IMPLS:
            r = s["impls"].get(impl)
            if not r:
                continue
            note = ""
            if r["capped"]:
                note = (f"  capped: {r['blocks']['median']:.0f} of "
                        f"{r['stream_blocks']} blocks in "
                        f"{r['cpu_seconds']['median']:.1f} s")
            bpr = r["heap_bytes_per_range"]
            req = r["req_bytes_per_range"]
            mem = "-" if impl == "bound" else (
                f"{bpr['median']:.1f} ({req['median']:.1f})")
            if impl == "batch" and r.get("distinct_blocks"):
                per = r["agg_bytes"]["median"] / r["distinct_blocks"]
                note += (f"  aggregate: {r['distinct_blocks']} distinct "
                         f"blocks, {per:.1f} B each")
            print(f"{sid:6}  {impl:15}  "
                  f"{fmt_rate(r['blocks_per_s']):22}  "
                  f"{r['ranges']['median']:7.0f}  {mem:18}  "
                  f"{r['peak_rss_bytes']['median'] / 2**20:8.1f}{note}")
    print()
    print("== Ratios of CPU times (median of per-run ratios [min..max]; "
          "wall-clock ratios in results.json) ==")
    for sid, desc in STREAMS:
        r = res["splitter"][sid]["ratios"]
        print(f"({sid}) {desc}")
        print(f"    ours vs perf NDEBUG throughput  "
              f"{fmt_stat(r['ours_vs_perf_ndebug'], unit='x')}")
        print(f"    ours vs perf debug throughput   "
              f"{fmt_stat(r['ours_vs_perf_debug'], prec=1, unit='x')}")
        print(f"    ours time / offline bound       "
              f"{fmt_stat(r['ours_over_bound'], unit='x')}")
        if "batch_vs_perf_ndebug" in r:
            print(f"    batch vs perf NDEBUG throughput "
                  f"{fmt_stat(r['batch_vs_perf_ndebug'], unit='x')}")
            print(f"    batch time / offline bound      "
                  f"{fmt_stat(r['batch_over_bound'], unit='x')}")
            print(f"    batch vs ours (tree) throughput "
                  f"{fmt_stat(r['batch_vs_ours'], unit='x')}")
        rp = res["splitter"][sid].get("batch_repeat10")
        if rp:
            print(f"    batch, stream fed 1x vs 10x:    distinct blocks "
                  f"{rp['distinct_blocks'][0]} vs {rp['distinct_blocks'][1]}, "
                  f"aggregate {rp['agg_bytes'][0] / 2**20:.2f} vs "
                  f"{rp['agg_bytes'][1] / 2**20:.2f} MiB, result "
                  f"{rp['result_bytes'][0] / 2**20:.2f} vs "
                  f"{rp['result_bytes'][1] / 2**20:.2f} MiB, peak RSS "
                  f"{rp['peak_rss_bytes'][0] / 2**20:.1f} vs "
                  f"{rp['peak_rss_bytes'][1] / 2**20:.1f} MiB"
                  f"{'' if rp['verified'] else ' (NOT VERIFIED)'}")
    e = res["end_to_end"]
    print()
    print(f"== End to end on {e['input_mb']} MB of perf script "
          f"({e['output_ranges']} ranges, outputs identical) ==")
    for name, label in (("ours", "blockrange ranges"),
                        ("llvm", "llvm-profgen-19 --skip-symbolization")):
        x = e[name]
        print(f"    {label:38} {fmt_stat(x['mb_per_s'], prec=0)} MB/CPU-s, "
              f"peak RSS {x['peak_rss_bytes']['median'] / 2**20:.0f} MiB")
    print(f"    ratio (CPU)   {fmt_stat(e['ratios']['ours_vs_llvm_profgen'], unit='x')}"
          f"   (wall {fmt_stat(e['ratios']['ours_vs_llvm_profgen_wall'], unit='x')})")
    print()
    print("== Targets ==")
    for key, t in res["targets"].items():
        print(f"    {key:32} {t['value']:8.2f}  target {t['target']:7}  "
              f"{'met' if t['met'] else 'MISSED'}")


def print_generic(name, res):
    """A part someone else writes: print its rows, or its leaves."""
    print()
    print(f"== {name} ==")
    rows = res.get("rows") if isinstance(res, dict) else None
    if isinstance(rows, list) and rows and all(isinstance(r, dict)
                                               for r in rows):
        cols = list(rows[0])
        print("    " + "  ".join(f"{c:>14}" for c in cols))
        for r in rows:
            print("    " + "  ".join(f"{str(r.get(c, '')):>14}" for c in cols))
        return

    def leaves(prefix, v):
        if isinstance(v, dict):
            for k, x in v.items():
                yield from leaves(f"{prefix}.{k}" if prefix else k, x)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                yield from leaves(f"{prefix}[{i}]", x)
        else:
            yield prefix, v
    for k, v in leaves("", res):
        print(f"    {k}: {v}")


def cmd_report(args):
    parts = {}
    for name in sorted(os.listdir(args.dir)):
        if not name.endswith(".json") or name == "results.json":
            continue
        with open(os.path.join(args.dir, name)) as f:
            parts[name[:-5]] = json.load(f)
    results = {"generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
               "parts": parts}
    if "hwmon" not in parts:
        results["parts"]["hwmon"] = {"status": "not run"}
    path = os.path.join(args.dir, "results.json")
    with open(path + ".tmp", "w") as f:
        json.dump(results, f, indent=1)
    os.replace(path + ".tmp", path)
    if "userspace" in parts:
        print_userspace(parts["userspace"])
    else:
        print("\n== Userspace benchmarks: not run ==")
    if "hwmon" in parts and parts["hwmon"].get("status") != "not run":
        print_generic("hwmon core (KUnit-hosted, ours/stock)", parts["hwmon"])
    else:
        print("\n== hwmon core (KUnit-hosted): not run ==")
    for name, res in parts.items():
        if name not in ("userspace", "hwmon"):
            print_generic(name, res)
    print(f"\n(wrote {path})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("userspace")
    u.add_argument("--out", required=True)
    u.add_argument("--streams", required=True)
    for k in ("ours", "batch", "perf-ndebug", "perf-debug", "bound"):
        u.add_argument("--" + k, required=True)
    u.add_argument("--runs", type=int, default=5)
    u.add_argument("--debug-runs", type=int, default=3)
    u.add_argument("--debug-cap", type=float, default=5.0)
    u.add_argument("--cli", required=True)
    u.add_argument("--llvm-profgen", default="llvm-profgen-19")
    u.add_argument("--workload", required=True)
    u.add_argument("--trace", required=True)
    u.add_argument("--e2e-input", required=True)
    u.add_argument("--e2e-runs", type=int, default=5)
    u.add_argument("--print", action="store_true",
                   help="print the table (`bench report` prints it too)")
    r = sub.add_parser("report")
    r.add_argument("--dir", required=True)
    g = sub.add_parser("replicate")
    g.add_argument("trace")
    g.add_argument("out")
    g.add_argument("--min-bytes", type=int, default=200 * 2**20)
    args = ap.parse_args()
    if args.cmd == "userspace":
        cmd_userspace(args)
    elif args.cmd == "replicate":
        n = make_e2e_input(args.trace, args.out, args.min_bytes)
        log(f"bench: {args.out}: {n} copies of {args.trace}, "
            f"{os.path.getsize(args.out) / 1e6:.0f} MB")
    else:
        cmd_report(args)


if __name__ == "__main__":
    main()
