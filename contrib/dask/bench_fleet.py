#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The fleet job on Dask against xargs -P of the same commands.

  bench_fleet.py --job contrib/dask/fleet.py --blockrange BIN --out DIR
                 --work DIR [--fan-in K] [--runs R] [--workers W] INPUT...

Each run does the same work twice, in alternating order:

  xargs   `xargs -0 -n 1 -P W sh -c` over the commands `blockrange profile
          -i INPUT -o P -j 1` (one per input), then, level by level, over
          the `blockrange merge` commands of the job's tree (the same groups
          of K, a group of one carried up): what a shell does on one
          machine, with a barrier between levels.
  dask    fleet.py on a LocalCluster of W workers x 1 thread, fan-in K:
          the same commands as Dask tasks (each under /usr/bin/time, which
          measures its peak RSS; a millisecond per command).

Figures: wall time and CPU (wait4 of xargs and of the job: every process
they waited for, Dask's worker processes included), input MB per wall
second, the ratio xargs wall / Dask wall per run (throughput of Dask
relative to xargs; > 1: Dask is faster), with the Dask job's wall counted
whole (Python start, cluster start and stop) and from its first task to its
result; memory: the peak RSS of every merge each Dask worker ran (the
reduce's memory per worker: one merge at a time per thread, the worker
process itself holds paths only), against one merge of K profiles and one
merge of all of them run alone, and the worker processes' own peak (VmHWM).
The outputs of both sides and one merge of all the per-input profiles must
be the same bytes, or the bench fails.  Writes DIR/fleet.json (its rows are
the table `make bench` prints).
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time

TIME = "/usr/bin/time"


def log(msg):
    print(f"bench-fleet: {msg}", file=sys.stderr, flush=True)


def load():
    return round(os.getloadavg()[0], 2)


def stats(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "n": len(values)}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def wait(argv, stdin=None, stderr_path=os.devnull):
    """Run @argv to its end; returns (wall, cpu, maxrss) from wait4.  A
    failure fails the bench."""
    with open(stderr_path, "ab") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin else
                             subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=err)
        if stdin:
            p.stdin.write(stdin)
            p.stdin.close()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        with open(stderr_path, "rb") as f:
            sys.stderr.write(f.read().decode(errors="replace")[-2000:])
        raise SystemExit(f"bench-fleet: {' '.join(argv[:6])}... failed "
                         f"with status {code}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024


def timed_rss(argv):
    """Peak RSS of @argv measured by GNU time (not polluted by this
    process, as wait4's would be)."""
    r = subprocess.run([TIME, "-f", "%M", "--"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise SystemExit(f"bench-fleet: {' '.join(argv[:4])}... failed")
    return int(r.stderr.split()[-1]) * 1024


def tree(paths, k, work):
    """The job's merge tree over @paths: a list of levels, each a list of
    (inputs, output)."""
    levels, level, depth = [], list(paths), 0
    while len(level) > 1 or depth == 0:
        depth += 1
        cmds, nxt = [], []
        for j in range(0, len(level), k):
            grp = level[j:j + k]
            if len(grp) == 1 and len(level) > 1:
                nxt.append(grp[0])
                continue
            dst = os.path.join(work, f"merge-{depth}-{j // k:06d}.brprof")
            cmds.append((grp, dst))
            nxt.append(dst)
        levels.append(cmds)
        level = nxt
    return levels, level[0]


def run_xargs(a, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    err = os.path.join(work, "stderr")
    q = shlex.quote
    profs = [os.path.join(work, f"{i:06d}.brprof")
             for i in range(len(a.inputs))]
    xargs = ["xargs", "-0", "-n", "1", "-P", str(a.workers), "sh", "-c"]
    maps = "\0".join(f"exec {q(a.blockrange)} profile -i {q(s)} -o {q(d)} "
                     f"-j 1 --no-progress" for s, d in zip(a.inputs, profs))
    wall, cpu, rss_prof = wait(xargs, maps.encode(), err)
    levels, root = tree(profs, a.fan_in, work)
    rss_merge = 0
    for cmds in levels:
        lines = "\0".join(
            f"exec {q(a.blockrange)} merge "
            f"{' '.join(q(s) for s in grp)} -o {q(dst)}"
            for grp, dst in cmds)
        w, c, r = wait(xargs, lines.encode(), err)
        wall, cpu, rss_merge = wall + w, cpu + c, max(rss_merge, r)
    return {"wall": wall, "cpu": cpu, "profile_rss": rss_prof,
            "merge_rss": rss_merge}, root, profs


def run_dask(a, work, out):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    st = os.path.join(work, "stats.json")
    wall, cpu, _ = wait(
        [a.python, a.job, "--blockrange", a.blockrange, "--workers",
         str(a.workers), "--threads-per-worker", "1", "--fan-in",
         str(a.fan_in), "--work-dir", work, "--stats", st, "-q", "-o", out] +
        a.inputs, stderr_path=os.path.join(work, "stderr"))
    s = json.loads(read(st))
    merges = [t for t in s["tasks"] if t["kind"] == "merge"]
    profs = [t for t in s["tasks"] if t["kind"] == "profile"]
    if not all(t["maxrss_exact"] for t in s["tasks"]):
        raise SystemExit(f"bench-fleet: {TIME} missing: no exact RSS")
    per_worker = {}
    for t in merges:
        per_worker[t["worker"]] = max(per_worker.get(t["worker"], 0),
                                      t["maxrss"])
    return {"wall": wall, "cpu": cpu,
            "compute": s["seconds"]["compute"],
            "cluster_start": s["seconds"]["cluster_start"],
            "merges": len(merges), "depth": s["depth"],
            "merge_rss_per_worker": per_worker,
            "reduce_rss": max(per_worker.values()),
            "profile_rss": max(t["maxrss"] for t in profs),
            "worker_vmhwm": max(m["vmhwm"] for m in
                                s["worker_memory"].values())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--job", required=True)
    ap.add_argument("--blockrange", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--fan-in", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    a.job, a.blockrange = os.path.abspath(a.job), os.path.abspath(a.blockrange)
    a.inputs = [os.path.abspath(p) for p in a.inputs]
    os.makedirs(a.work, exist_ok=True)
    in_bytes = sum(os.path.getsize(p) for p in a.inputs)
    mb = in_bytes / 1e6
    for p in a.inputs:
        read(p)
    la = [load()]
    log(f"{len(a.inputs)} inputs, {mb:.0f} MB, fan-in {a.fan_in}, "
        f"{a.workers} workers, {a.runs} runs; load {la[0]}")
    xs, ds = [], []
    xw, dw = os.path.join(a.work, "xargs"), os.path.join(a.work, "dask")
    dout = os.path.join(a.work, "dask.brprof")
    for r in range(a.runs):
        for side in (("xargs", "dask") if r % 2 == 0 else ("dask", "xargs")):
            if side == "xargs":
                x, root, profs = run_xargs(a, xw)
                xs.append(x)
                log(f"run {r + 1}: xargs -P {a.workers} {x['wall']:.1f} s "
                    f"wall, {x['cpu']:.1f} s CPU")
            else:
                d = run_dask(a, os.path.join(dw, str(r)), dout)
                ds.append(d)
                log(f"run {r + 1}: dask {d['wall']:.1f} s wall (cluster "
                    f"start {d['cluster_start']:.1f} s, tasks "
                    f"{d['compute']:.1f} s), {d['cpu']:.1f} s CPU")
        if read(dout) != read(root):
            raise SystemExit("bench-fleet: the Dask job and the xargs tree "
                             "wrote different profiles")
    flat = os.path.join(a.work, "flat.brprof")
    rss_flat = timed_rss([a.blockrange, "merge"] + profs + ["-o", flat])
    if read(flat) != read(dout):
        raise SystemExit("bench-fleet: one merge of all the profiles differs "
                         "from the Dask job's")
    rss_k = timed_rss([a.blockrange, "merge"] + profs[:a.fan_in] +
                      ["-o", os.path.join(a.work, "k.brprof")])
    la.append(load())

    ratio_job = stats([x["wall"] / d["wall"] for x, d in zip(xs, ds)])
    ratio_tasks = stats([x["wall"] / d["compute"] for x, d in zip(xs, ds)])
    ratio_cpu = stats([d["cpu"] / x["cpu"] for x, d in zip(xs, ds)])
    mib = 2 ** 20
    res = {
        "inputs": len(a.inputs), "input_bytes": in_bytes,
        "fan_in": a.fan_in, "workers": a.workers, "threads_per_worker": 1,
        "merges": ds[0]["merges"], "depth": ds[0]["depth"],
        "outputs_identical": True, "loadavg": la,
        "xargs": {"wall_seconds": stats([x["wall"] for x in xs]),
                  "cpu_seconds": stats([x["cpu"] for x in xs]),
                  "mb_per_s": stats([mb / x["wall"] for x in xs]),
                  "merge_peak_rss_bytes": max(x["merge_rss"] for x in xs)},
        "dask": {"wall_seconds": stats([d["wall"] for d in ds]),
                 "task_seconds": stats([d["compute"] for d in ds]),
                 "cluster_start_seconds": stats([d["cluster_start"]
                                                 for d in ds]),
                 "cpu_seconds": stats([d["cpu"] for d in ds]),
                 "mb_per_s": stats([mb / d["wall"] for d in ds]),
                 "reduce_peak_rss_per_worker": [d["merge_rss_per_worker"]
                                                for d in ds],
                 "reduce_peak_rss_bytes": stats([d["reduce_rss"]
                                                 for d in ds]),
                 "profile_peak_rss_bytes": stats([d["profile_rss"]
                                                  for d in ds]),
                 "worker_vmhwm_bytes": stats([d["worker_vmhwm"]
                                              for d in ds])},
        "throughput_dask_over_xargs": ratio_job,
        "throughput_dask_tasks_over_xargs": ratio_tasks,
        "cpu_dask_over_xargs": ratio_cpu,
        "merge_fan_in_alone_rss_bytes": rss_k,
        "merge_all_rss_bytes": rss_flat,
    }

    def row(fig, s, unit, scale=1.0, prec=2):
        if isinstance(s, dict):
            return {"figure": fig, "median": round(s["median"] / scale, prec),
                    "min": round(s["min"] / scale, prec),
                    "max": round(s["max"] / scale, prec), "unit": unit}
        return {"figure": fig, "median": round(s / scale, prec), "min": "",
                "max": "", "unit": unit}
    dk, xa = res["dask"], res["xargs"]
    res["rows"] = [
        row(f"xargs -P {a.workers} wall", xa["wall_seconds"], "s"),
        row("dask job wall", dk["wall_seconds"], "s"),
        row("dask tasks wall", dk["task_seconds"], "s"),
        row("cluster start", dk["cluster_start_seconds"], "s"),
        row("xargs CPU", xa["cpu_seconds"], "s"),
        row("dask CPU", dk["cpu_seconds"], "s"),
        row("xargs input/s", xa["mb_per_s"], "MB/s", prec=1),
        row("dask input/s", dk["mb_per_s"], "MB/s", prec=1),
        row("dask/xargs job", ratio_job, "x"),
        row("dask/xargs tasks", ratio_tasks, "x"),
        row("CPU dask/xargs", ratio_cpu, "x"),
        row("reduce/worker", dk["reduce_peak_rss_bytes"], "MiB RSS", mib, 1),
        row(f"merge of {a.fan_in}", rss_k, "MiB RSS", mib, 1),
        row(f"merge of {len(a.inputs)}", rss_flat, "MiB RSS", mib, 1),
        row("worker VmHWM", dk["worker_vmhwm_bytes"], "MiB", mib, 1),
        {"figure": "load", "median": "", "min": la[0], "max": la[-1],
         "unit": "1-min avg"},
    ]
    path = os.path.join(a.out, "fleet.json")
    with open(path + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(path + ".tmp", path)
    log(f"{len(a.inputs)} inputs ({mb:.0f} MB): xargs -P {a.workers} "
        f"{xa['wall_seconds']['median']:.1f} s, Dask "
        f"{dk['wall_seconds']['median']:.1f} s (tasks "
        f"{dk['task_seconds']['median']:.1f} s): throughput Dask/xargs "
        f"{ratio_job['median']:.2f}x (tasks only {ratio_tasks['median']:.2f}x)"
        f", CPU Dask/xargs {ratio_cpu['median']:.2f}x; reduce peak RSS per "
        f"worker "
        f"{dk['reduce_peak_rss_bytes']['median'] / mib:.1f} MiB, one merge of "
        f"{a.fan_in} {rss_k / mib:.1f} MiB, of {len(a.inputs)} "
        f"{rss_flat / mib:.1f} MiB; worker process peak "
        f"{dk['worker_vmhwm_bytes']['median'] / mib:.0f} MiB; outputs "
        f"identical; load {la[0]} -> {la[-1]}")
    log(f"wrote {path}")


if __name__ == "__main__":
    main()
