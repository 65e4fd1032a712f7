#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The floor of a QEMU branch recorder under plugin API version 4
(make bench-qemu-api4), beside version 1's.

The recorder's plugin targets API version 1, the only one a Debian 12
qemu-x86_64 loads (QEMU 7.2), and there every block must call a callback.
Version 3 (QEMU 9.0) brought inline stores and callbacks that run only
when a per-vCPU value compares true with a constant; this measures what a
recorder built on them could at best cost, with a QEMU 10.0 built for it
(scripts/qemu-api4.py).  Workloads as bench-qemu-record's (sort of
shuffled lines, gzip -c of text, a python3 loop); CPU time (user + system)
of each, fastest and median of --runs alternated runs:

  native       the program alone
  qemu1        Debian 12's qemu-x86_64 -cpu max (QEMU 7.2), no plugin
  pair1        qemu1 with bench/qemu-probe.c mode=pair: the least a
               version-1 recorder does (a callback in every block)
  qemu4        the QEMU 10.0 built here, no plugin
  empty, pair, inline, one, taken, burst
               qemu4 with bench/qemu-probe4.c in that mode (see there):
               one is the least an exact recorder does (an inline store
               and a compare in every block, a callback after each taken
               branch), burst the least a sampled one does (an inline add
               and a compare in every block, callbacks in bursts)

Ratios: pair1 / qemu1, and each probe4 mode / qemu4; the goal of the
recorder is <= 1.5 over plain QEMU in both modes.  Writes
DIR/qemu-api4.json and, with --print, the table.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qemu_rec_bench as qb  # noqa: E402

MODES4 = ["empty", "pair", "inline", "one", "taken", "burst"]


def command(a, col, prog):
    if col == "native":
        return prog
    if col == "qemu1":
        return [a.qemu1, "-cpu", "max"] + prog
    if col == "pair1":
        return [a.qemu1, "-cpu", "max", "-plugin", f"{a.probe1},mode=pair",
                "-0", prog[0]] + prog
    if col == "qemu4":
        return [a.qemu4, "-cpu", "max"] + prog
    return [a.qemu4, "-cpu", "max", "-plugin", f"{a.probe4},mode={col}",
            "-0", prog[0]] + prog


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu1", default="/usr/bin/qemu-x86_64")
    ap.add_argument("--qemu4", required=True)
    ap.add_argument("--probe1", required=True)
    ap.add_argument("--probe4", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sort-lines", type=int, default=2000000)
    ap.add_argument("--gzip-mb", type=float, default=50)
    ap.add_argument("--py-iters", type=int, default=3000000)
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    t0, la0 = time.time(), qb.load()
    work = os.path.join(a.out, "qemu-record")
    sort_in, gz, _ = qb.make_inputs(work, a.sort_lines, a.gzip_mb)
    workloads = {
        f"sort {a.sort_lines} lines": ["/usr/bin/sort", "--parallel=1", sort_in],
        f"gzip -c {a.gzip_mb:g} MB": ["/usr/bin/gzip", "-c", gz[a.gzip_mb]],
        f"python3 loop {a.py_iters}": ["/usr/bin/python3", "-c",
                                       qb.PY_LOOP % a.py_iters],
    }
    cols = ["native", "qemu1", "pair1", "qemu4"] + MODES4
    res = {"workloads": {}}
    for name, prog in workloads.items():
        times = {c: [] for c in cols}
        notes = {}
        for r in range(a.runs):
            for c in (cols if r % 2 == 0 else list(reversed(cols))):
                cpu, _, err = qb.run(command(a, c, prog))
                times[c].append(cpu)
                notes[c] = [ln for ln in err.splitlines()
                            if ln.startswith("qemu-probe")]
            print(f"bench-qemu-api4: {name}: run {r + 1}/{a.runs} done",
                  file=sys.stderr, flush=True)
        low = {c: min(v) for c, v in times.items()}
        med = {c: statistics.median(v) for c, v in times.items()}
        ratios = {"pair1/qemu1": [low["pair1"] / low["qemu1"],
                                  med["pair1"] / med["qemu1"]],
                  "qemu4/qemu1": [low["qemu4"] / low["qemu1"],
                                  med["qemu4"] / med["qemu1"]]}
        for m in MODES4:
            ratios[f"{m}/qemu4"] = [low[m] / low["qemu4"],
                                    med[m] / med["qemu4"]]
        res["workloads"][name] = {"cpu_s_min": low, "cpu_s": med,
                                  "runs": times, "ratios": ratios,
                                  "probe_counts": notes}
    res["load"] = {"before": la0, "after": qb.load()}
    res["seconds"] = time.time() - t0
    path = os.path.join(a.out, "qemu-api4.json")
    with open(path + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(path + ".tmp", path)
    if a.print:
        print_table(res)


def print_table(res):
    print("\n== the floor of pairing blocks, plugin API 1 (QEMU 7.2) and 4 "
          "(QEMU 10.0): CPU over plain QEMU, fastest run (median) ==")
    heads = ["workload", "qemu1 s", "pair1", "qemu4 s"] + MODES4
    rows = []
    for name, w in res["workloads"].items():
        r = w["ratios"]
        rows.append([name, f"{w['cpu_s_min']['qemu1']:.2f}",
                     "%.2f (%.2f)" % tuple(r["pair1/qemu1"]),
                     f"{w['cpu_s_min']['qemu4']:.2f}"] +
                    ["%.2f (%.2f)" % tuple(r[f"{m}/qemu4"]) for m in MODES4])
    width = [max(len(h), *(len(row[i]) for row in rows))
             for i, h in enumerate(heads)]
    print("| " + " | ".join(h.ljust(width[i]) for i, h in enumerate(heads)) + " |")
    print("|" + "|".join("-" * (wd + 2) for wd in width) + "|")
    for row in rows:
        print("| " + " | ".join(v.ljust(width[i]) if not i else v.rjust(width[i])
                                for i, v in enumerate(row)) + " |")
    for name, w in res["workloads"].items():
        for c, lines in w["probe_counts"].items():
            for ln in lines:
                print(f"  {name}: {ln}")
    print(f"  load {res['load']['before']:.1f} -> {res['load']['after']:.1f}, "
          f"{res['seconds']:.0f} s")


if __name__ == "__main__":
    main()
