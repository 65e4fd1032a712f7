#!/usr/bin/env python3
"""Sample profiles at scale: `blockrange autofdo` against llvm-profgen-19.

  autofdo.py --cli build/bin/blockrange --llvm-profgen llvm-profgen-19 \\
      --input BIG.data --binary DSO --out build/bench [--runs 3]

Both sides read the same >= 200 MB perf.data and write the text profile of
one DSO: `blockrange autofdo -i BIG.data --dso NAME -j 1` and
`llvm-profgen-19 --perfdata=BIG.data --binary=DSO` (which runs `perf script`
itself: its CPU time and peak RSS include that child's, as wait4 reports
them).  Runs alternate (the order flips from one repetition to the next);
the ratios CPU(llvm-profgen) / CPU(ours) and peak RSS(llvm-profgen) / peak
RSS(ours) are taken per repetition, and their median is the result.  The two
profiles must be byte for byte equal, or the bench fails.  Writes
OUT/autofdo.json (bench.py report prints it with the other parts).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def stats(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "runs": len(values)}


def run(cmd, err_path):
    """Run @cmd, wait for it: (wall, cpu, peak rss) from wait4 (the peak RSS
    of it and its waited-for children)."""
    with open(err_path, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        with open(err_path, errors="replace") as f:
            sys.stderr.write(f.read()[-2000:])
        raise SystemExit(f"bench: {' '.join(cmd)} failed")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024


def same(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--llvm-profgen", default="llvm-profgen-19")
    ap.add_argument("--input", required=True)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    dso = os.path.basename(a.binary)
    ours_out = os.path.join(a.out, "autofdo.ours.txt")
    llvm_out = os.path.join(a.out, "autofdo.llvm.txt")
    err = os.path.join(a.out, "autofdo.err")
    with open(a.input, "rb") as f:      # warm the page cache
        while f.read(1 << 24):
            pass
    l0 = round(os.getloadavg()[0], 2)
    runs = {"ours": [], "llvm": []}
    for rep in range(a.runs):
        sides = ["llvm", "ours"] if rep % 2 == 0 else ["ours", "llvm"]
        for side in sides:
            if side == "ours":
                cmd = [a.cli, "autofdo", "-i", a.input, "--dso", dso,
                       "-j", "1", "--no-progress", "--format=text",
                       "-o", ours_out]
            else:
                cmd = [a.llvm_profgen, f"--perfdata={a.input}",
                       f"--binary={a.binary}", "--format=text",
                       f"--output={llvm_out}"]
            wall, cpu, rss = run(cmd, err)
            runs[side].append({"wall": wall, "cpu": cpu, "rss": rss})
            print(f"bench: autofdo {side}: {wall:.1f} s wall, {cpu:.1f} s "
                  f"CPU, {rss / 2**20:.0f} MiB", file=sys.stderr)
        if not same(ours_out, llvm_out):
            raise SystemExit(f"bench: {ours_out} and {llvm_out} differ")
    res = {"description": "blockrange autofdo vs llvm-profgen-19 --perfdata "
                          "(text sample profile of one DSO, equal bytes)",
           "input_bytes": os.path.getsize(a.input), "dso": dso,
           "profile_bytes": os.path.getsize(ours_out),
           "profiles_identical": True}
    for k, rs in runs.items():
        res[k] = {"wall_seconds": stats([r["wall"] for r in rs]),
                  "cpu_seconds": stats([r["cpu"] for r in rs]),
                  "peak_rss_bytes": stats([r["rss"] for r in rs])}
    res["ratios"] = {
        "cpu": stats([l["cpu"] / o["cpu"] for l, o in
                      zip(runs["llvm"], runs["ours"])]),
        "rss": stats([l["rss"] / o["rss"] for l, o in
                      zip(runs["llvm"], runs["ours"])]),
        "wall": stats([l["wall"] / o["wall"] for l, o in
                       zip(runs["llvm"], runs["ours"])])}
    res["loadavg"] = [l0, round(os.getloadavg()[0], 2)]
    path = os.path.join(a.out, "autofdo.json")
    with open(path + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(path + ".tmp", path)
    print(f"bench: autofdo vs llvm-profgen-19 on "
          f"{res['input_bytes'] / 1e6:.0f} MB: "
          f"{res['ratios']['cpu']['median']:.1f}x less CPU, "
          f"{res['ratios']['rss']['median']:.1f}x less peak RSS "
          f"(load {res['loadavg'][0]} -> {res['loadavg'][1]})")


if __name__ == "__main__":
    main()
