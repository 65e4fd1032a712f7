#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The QEMU recorder's benchmark (make bench-qemu-record).

For each workload (sort --parallel=1 of `seq N | shuf`, gzip -c of M MB of
text, a pure-Python loop in python3), the CPU time (user + system of the
whole process tree, median of --runs runs in alternating order) of:

  native     the program alone
  qemu       qemu-x86_64 -cpu max, no plugin
  sampled    qemu-x86_64 with the recorder plugin, sampled (the defaults:
             depth 32, period 10007); and `blockrange record` end to end
             (the plugin, then perf.data written) as record-sampled
  stack      the plugin sampled with the call stacks of `record -g`
             (stack=1: a memory callback on every call and ret)
  exact      the same in exact mode; record-exact writes the .brprof
  callgrind  valgrind --tool=callgrind --collect-jumps=yes (--cg-runs runs)
  empty      qemu-x86_64 with bench/qemu-probe.c calling an empty callback
             in every block: what QEMU's call of a callback costs alone
  pair       the probe pairing every block with the one before it and
             comparing its start with that block's fall-through: the least
             any recorder that pairs blocks does under QEMU 7.2's plugin
             API version 1, which gives a plugin no register and no inline
             operation but an add, so a callback in every block

and the ratios the goals are about: plugin / qemu (<= 1.5; beside it the
floor: pair / qemu, and the plugin's distance to it; also as the ratio of
the fastest runs, which a busy machine blurs less), callgrind /
record (>= 3), the recorder's instructions per CPU second against the
ptrace engine's (recording sort of 300 lines single-stepped; >= 1000),
and exact mode's memory: the plugin's peak RSS above plain QEMU's, on
gzip of M/10 MB and of M MB (flat: the distinct edges are the same).

Writes DIR/qemu-record.json (rows: the table; the rest: every run) and,
with --print, the table.  The 1-minute load average is recorded before and
after: on a busy machine the figures are provisional.
"""
import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

PY_LOOP = (
    "d = {}\n"
    "for i in range(%d):\n"
    "    k = 'k%%d' %% (i %% 5003)\n"
    "    d[k] = d.get(k, 0) + len(k) * (i & 7)\n"
    "print(sum(d.values()))\n"
)


def log(msg):
    print(f"bench-qemu-record: {msg}", file=sys.stderr, flush=True)


def load():
    return os.getloadavg()[0]


def run(cmd, stdout=subprocess.DEVNULL, env=None):
    """CPU seconds (user + sys of the tree), peak RSS (KiB), exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, env=env)
    _, err = p.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"bench-qemu-record: {cmd[0]} failed ({p.returncode}): "
                         f"{err.decode(errors='replace')[-2000:]}")
    return cpu, after.ru_maxrss, err.decode(errors="replace")


def rss_of(cmd, tmp):
    """
    Peak RSS (KiB) of the one process @cmd starts, through GNU time: a
    child of this (larger) Python process would inherit its high-water
    mark at exec.
    """
    out = os.path.join(tmp, "time.out")
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise SystemExit(f"bench-qemu-record: {cmd[0]} failed: {p.stderr[-2000:]}")
    with open(out) as f:
        return int(f.read().split()[-1])


def make_inputs(d, sort_lines, gzip_mb):
    os.makedirs(d, exist_ok=True)
    sort_in = os.path.join(d, f"sort-{sort_lines}.txt")
    if not os.path.exists(sort_in):
        rnd = random.Random(20)
        lines = list(range(1, sort_lines + 1))
        rnd.shuffle(lines)
        with open(sort_in + ".tmp", "w") as f:
            f.write("\n".join(map(str, lines)) + "\n")
        os.replace(sort_in + ".tmp", sort_in)
    gz = {}
    for mb in (gzip_mb / 10, gzip_mb):
        path = os.path.join(d, f"text-{mb:g}MB.txt")
        gz[mb] = path
        if os.path.exists(path):
            continue
        rnd = random.Random(21)
        words = ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz")
                         for _ in range(rnd.randint(2, 9))) for _ in range(5000)]
        want = int(mb * 1024 * 1024)
        with open(path + ".tmp", "w") as f:
            n = 0
            while n < want:
                line = " ".join(rnd.choice(words)
                                for _ in range(rnd.randint(5, 15))) + "\n"
                f.write(line)
                n += len(line)
        os.replace(path + ".tmp", path)
    small = os.path.join(d, "sort-300.txt")
    if not os.path.exists(small):
        rnd = random.Random(22)
        lines = list(range(300))
        rnd.shuffle(lines)
        with open(small, "w") as f:
            f.write("\n".join(map(str, lines)) + "\n")
    return sort_in, gz, small


def probe_cmd(a, mode, prog):
    return [a.qemu, "-cpu", "max", "-plugin", f"{a.probe},mode={mode}",
            "-0", prog[0]] + prog


def plugin_cmd(a, tmp, mode, prog):
    stack = 0
    if mode == "stack":
        mode, stack = "sampled", 1
    spec = (f"{a.plugin},out={tmp},mode={mode},stack={stack},depth=32,period=10007,"
            f"jitter=0,seed=1,qemu={a.qemu},cpu=max,exe={prog[0]},"
            f"comm={os.path.basename(prog[0])[:15]}")
    return [a.qemu, "-cpu", "max", "-plugin", spec, "-0", prog[0]] + prog


def summary_insns(err):
    """Instructions of a record summary line ("cpu max: N instructions")."""
    for line in err.splitlines():
        if "; qemu, cpu " in line and " instructions, " in line:
            return int(line.split(": ", 2)[2].split(" ")[0])
        if " instructions executed" in line:
            return int(line.split("; ")[1].split(" ")[0])
    raise SystemExit(f"bench-qemu-record: no instruction count in: {err}")


def median(xs):
    return statistics.median(xs) if xs else None


def measure(a, name, prog, out):
    """The columns of one workload."""
    cols = ["native", "qemu", "probe-empty", "probe-pair", "plugin-sampled",
            "plugin-stack", "plugin-exact", "record-sampled", "record-exact"]
    times = {c: [] for c in cols}
    insns = None
    for r in range(a.runs):
        order = cols if r % 2 == 0 else list(reversed(cols))
        for c in order:
            with tempfile.TemporaryDirectory(dir=out) as tmp:
                if c == "native":
                    cmd = prog
                elif c == "qemu":
                    cmd = [a.qemu, "-cpu", "max"] + prog
                elif c.startswith("probe-"):
                    cmd = probe_cmd(a, c[6:], prog)
                elif c.startswith("plugin-"):
                    cmd = plugin_cmd(a, tmp, c[7:], prog)
                elif c == "record-sampled":
                    cmd = [a.cli, "record", "-o",
                           os.path.join(tmp, "perf.data"), "--"] + prog
                else:
                    cmd = [a.cli, "record", "--exact", "-o",
                           os.path.join(tmp, "x.brprof"), "--"] + prog
                cpu, _, err = run(cmd)
                times[c].append(cpu)
                if c.startswith("record-"):
                    insns = summary_insns(err)
        log(f"{name}: run {r + 1}/{a.runs} done")
    cg = []
    for r in range(a.cg_runs):
        with tempfile.TemporaryDirectory(dir=out) as tmp:
            cpu, _, _ = run(["valgrind", "--tool=callgrind",
                             "--collect-jumps=yes",
                             "--callgrind-out-file=" +
                             os.path.join(tmp, "cg.out")] + prog)
            cg.append(cpu)
    log(f"{name}: callgrind done")
    med = {c: median(v) for c, v in times.items()}
    med["callgrind"] = median(cg)
    # Interference on a shared machine only adds CPU time: the fastest
    # run of each column is the other view of the same runs.
    low = {c: min(v) for c, v in times.items()}
    return {"cpu_s": med, "cpu_s_min": low, "runs": times,
            "callgrind_runs": cg, "instructions": insns}


def exact_memory(a, out, gz):
    """Peak RSS above plain QEMU's: gzip of the small and the large text."""
    res = {}
    for mb, path in sorted(gz.items()):
        prog = ["/usr/bin/gzip", "-c", path]
        with tempfile.TemporaryDirectory(dir=out) as tmp:
            plain = rss_of([a.qemu, "-cpu", "max"] + prog, tmp)
            exact = rss_of(plugin_cmd(a, tmp, "exact", prog), tmp)
            tab = sum(os.path.getsize(os.path.join(tmp, f))
                      for f in os.listdir(tmp) if f.endswith(".qtab"))
        res[f"{mb:g}"] = {"qemu_kib": plain, "exact_kib": exact,
                          "plugin_kib": exact - plain, "tables_bytes": tab}
    return res


def ptrace_rate(a, out, small):
    prog = ["/usr/bin/sort", small]
    with tempfile.TemporaryDirectory(dir=out) as tmp:
        cpu, _, err = run([a.cli, "record", "--engine=ptrace", "--period",
                           "1000", "-o", os.path.join(tmp, "p.data"), "--"] + prog)
    n = summary_insns(err)
    return {"instructions": n, "cpu_s": cpu, "insns_per_s": n / cpu}


def fmt(x, p=2):
    return "-" if x is None else f"{x:.{p}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--qemu", default="qemu-x86_64")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--probe", required=True,
                    help="bench/qemu-probe.c built (the floor's plugin)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cg-runs", type=int, default=1)
    ap.add_argument("--sort-lines", type=int, default=2000000)
    ap.add_argument("--gzip-mb", type=float, default=50)
    ap.add_argument("--py-iters", type=int, default=3000000)
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    work = os.path.join(a.out, "qemu-record")
    os.makedirs(work, exist_ok=True)
    sort_in, gz, small = make_inputs(work, a.sort_lines, a.gzip_mb)
    la0 = load()
    t0 = time.time()
    workloads = {
        f"sort {a.sort_lines} lines": ["/usr/bin/sort", "--parallel=1", sort_in],
        f"gzip -c {a.gzip_mb:g} MB": ["/usr/bin/gzip", "-c", gz[a.gzip_mb]],
        f"python3 loop {a.py_iters}": ["/usr/bin/python3", "-c",
                                       PY_LOOP % a.py_iters],
    }
    res = {"workloads": {}}
    for name, prog in workloads.items():
        res["workloads"][name] = measure(a, name, prog, work)
    res["ptrace"] = ptrace_rate(a, work, small)
    res["exact_memory"] = exact_memory(a, work, gz)
    res["load"] = {"before": la0, "after": load()}
    res["seconds"] = time.time() - t0
    rows = []
    goals = {"plugin_over_qemu": 1.5, "callgrind_over_record": 3.0,
             "insns_per_s_over_ptrace": 1000.0, "exact_memory_growth": 1.25}
    worst = {"plugin_over_qemu": 0.0, "callgrind_over_record": float("inf"),
             "insns_per_s_over_ptrace": float("inf"), "floor": 0.0}
    for name, w in res["workloads"].items():
        m = w["cpu_s"]
        ps = m["plugin-sampled"] / m["qemu"]
        pe = m["plugin-exact"] / m["qemu"]
        fe = m["probe-empty"] / m["qemu"]
        fp = m["probe-pair"] / m["qemu"]
        cs = m["callgrind"] / m["record-sampled"] if m["callgrind"] else None
        ce = m["callgrind"] / m["record-exact"] if m["callgrind"] else None
        rate = w["instructions"] / m["record-sampled"]
        over_pt = rate / res["ptrace"]["insns_per_s"]
        w["ratios"] = {"qemu/native": m["qemu"] / m["native"],
                       "plugin-sampled/qemu": ps, "plugin-exact/qemu": pe,
                       "plugin-stack/qemu": m["plugin-stack"] / m["qemu"],
                       "plugin-stack/plugin-sampled":
                           m["plugin-stack"] / m["plugin-sampled"],
                       "empty/qemu": fe, "pair/qemu": fp,
                       "plugin-sampled/pair": m["plugin-sampled"] / m["probe-pair"],
                       "plugin-exact/pair": m["plugin-exact"] / m["probe-pair"],
                       "min": {c: w["cpu_s_min"][c] / w["cpu_s_min"]["qemu"]
                               for c in ("plugin-sampled", "plugin-stack",
                                         "plugin-exact",
                                         "probe-empty", "probe-pair")},
                       "record-sampled/native": m["record-sampled"] / m["native"],
                       "record-exact/native": m["record-exact"] / m["native"],
                       "callgrind/record-sampled": cs,
                       "callgrind/record-exact": ce,
                       "insns_per_s": rate, "insns_per_s/ptrace": over_pt}
        worst["plugin_over_qemu"] = max(worst["plugin_over_qemu"], ps, pe)
        worst["floor"] = max(worst["floor"], fp)
        if cs:
            worst["callgrind_over_record"] = min(
                worst["callgrind_over_record"], cs, ce)
        worst["insns_per_s_over_ptrace"] = min(
            worst["insns_per_s_over_ptrace"], over_pt)
        rows.append({"workload": name, "native s": fmt(m["native"]),
                     "qemu": fmt(m["qemu"] / m["native"]) + "x",
                     "sampled": fmt(m["plugin-sampled"] / m["native"]) + "x",
                     "exact": fmt(m["plugin-exact"] / m["native"]) + "x",
                     "callgrind": fmt(m["callgrind"] / m["native"]
                                      if m["callgrind"] else None) + "x",
                     "smp/qemu": fmt(ps),
                     "stack/qemu": fmt(m["plugin-stack"] / m["qemu"]),
                     "exact/qemu": fmt(pe),
                     "empty/qemu": fmt(fe), "pair/qemu": fmt(fp),
                     "cg/rec-smp": fmt(cs, 1), "cg/rec-exact": fmt(ce, 1),
                     "x ptrace": f"{over_pt:.0f}"})
    mem = res["exact_memory"]
    small_kib, big_kib = (mem[k]["plugin_kib"] for k in sorted(
        mem, key=float))
    growth = big_kib / small_kib if small_kib > 0 else None
    res["goals"] = {
        "plugin_over_qemu": {"worst": worst["plugin_over_qemu"], "goal": "<= 1.5",
                             "met": worst["plugin_over_qemu"] <= 1.5},
        "pairing_floor": {"worst": worst["floor"], "goal": "<= 1.5 for the "
                          "goal above to be reachable under plugin API 1",
                          "met": worst["floor"] <= 1.5},
        "callgrind_over_record": {"worst": worst["callgrind_over_record"],
                                  "goal": ">= 3",
                                  "met": worst["callgrind_over_record"] >= 3},
        "insns_per_s_over_ptrace": {"worst": worst["insns_per_s_over_ptrace"],
                                    "goal": ">= 1000",
                                    "met": worst["insns_per_s_over_ptrace"] >= 1000},
        "exact_memory_growth": {"value": growth,
                                "goal": f"flat: {a.gzip_mb:g} MB vs {a.gzip_mb / 10:g} MB <= 1.25",
                                "met": growth is not None and growth <= 1.25},
    }
    res["rows"] = rows
    with open(os.path.join(a.out, "qemu-record.json") + ".tmp", "w") as f:
        json.dump(res, f, indent=1)
    os.replace(os.path.join(a.out, "qemu-record.json") + ".tmp",
               os.path.join(a.out, "qemu-record.json"))
    if a.print:
        print_table(res)


def print_table(res):
    print("\n== blockrange record (QEMU engine): CPU seconds, median; ratios to native ==")
    cols = list(res["rows"][0])
    width = {c: max([len(c)] + [len(str(r[c])) for r in res["rows"]])
             for c in cols}
    print("| " + " | ".join(c.ljust(width[c]) for c in cols) + " |")
    print("|" + "|".join("-" * (width[c] + 2) for c in cols) + "|")
    for r in res["rows"]:
        print("| " + " | ".join(str(r[c]).rjust(width[c]) if i else
                                str(r[c]).ljust(width[c])
                                for i, c in enumerate(cols)) + " |")
    for name, w in res["workloads"].items():
        m = w["cpu_s"]
        print(f"  {name}: record end to end sampled {m['record-sampled']:.2f} s, "
              f"exact {m['record-exact']:.2f} s; {w['instructions']} instructions, "
              f"{w['ratios']['insns_per_s'] / 1e6:.1f} M/s")
        r = w["ratios"]
        print(f"  {name}: floor under plugin API 1: an empty callback {r['empty/qemu']:.2f}x "
              f"qemu, the least pairing {r['pair/qemu']:.2f}x; the plugin "
              f"{r['plugin-sampled/pair']:.2f}x (sampled) and {r['plugin-exact/pair']:.2f}x "
              f"(exact) of the least pairing")
        print(f"  {name}: call stacks (-g): sampled with stacks {r['plugin-stack/qemu']:.2f}x "
              f"qemu, {r['plugin-stack/plugin-sampled']:.2f}x sampled without")
        lo = r["min"]
        print(f"  {name}: fastest runs over qemu's fastest: sampled {lo['plugin-sampled']:.2f}, "
              f"exact {lo['plugin-exact']:.2f}, empty {lo['probe-empty']:.2f}, "
              f"least pairing {lo['probe-pair']:.2f}")
    pt = res["ptrace"]
    print(f"  ptrace engine: {pt['instructions']} instructions in {pt['cpu_s']:.2f} s "
          f"= {pt['insns_per_s'] / 1e3:.1f} k/s")
    for k, v in res["exact_memory"].items():
        print(f"  exact, gzip of {k} MB: plugin {v['plugin_kib'] / 1024:.1f} MiB above "
              f"qemu's {v['qemu_kib'] / 1024:.1f} MiB (tables {v['tables_bytes'] / 2**20:.1f} MiB)")
    for k, g in res["goals"].items():
        val = g.get("worst", g.get("value"))
        print(f"  goal {k}: {fmt(val)} ({g['goal']}): {'met' if g['met'] else 'NOT met'}")
    print(f"  load {res['load']['before']:.1f} -> {res['load']['after']:.1f}, "
          f"{res['seconds']:.0f} s")


if __name__ == "__main__":
    main()
