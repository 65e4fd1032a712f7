#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the Dask fleet job (contrib/dask/fleet.py) against blockrange itself.

  check_fleet.py --job contrib/dask/fleet.py --blockrange build/bin/blockrange
                 --scratch DIR INPUT.data...

The oracle: `blockrange profile -j 1` of every input, then one `blockrange
merge` of all the profiles.  The inputs must give pairwise different
profiles, so that a profile lost, counted twice or swapped for another
changes the merged bytes.

  local      LocalCluster, 4 workers, fan-in 4.  The test hook makes the
             first attempt of one profile task wait, once its output is
             written under its temporary name, until the test kills its
             worker process (SIGKILL); Dask runs the task again elsewhere.
             The output must equal the oracle byte for byte, the retry must
             have run in another process, and the killed attempt's complete
             but uncommitted file must still lie in the kept work directory,
             never renamed (counting it would have changed the bytes).
  scheduler  dask-scheduler and 4 dask-worker processes (no nanny) started
             here, the job with --scheduler ADDRESS and fan-in 3 (a tree
             with groups carried up unchanged): the oracle's bytes, the
             tasks ran on those workers, no work directory left behind.
  corrupt    the same cluster, one input truncated: exit status 2, exactly
             one line on stderr naming that file, no output, no work
             directory left behind.
  usage      a missing input, an input given twice, --fan-in 1: status 1
             and one line naming the problem, before any cluster starts.

Every job runs with a time limit (a hung job fails the check); nothing here
asserts a timing.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

PY = "/usr/bin/python3"
HOLD_ENV = "BLOCKRANGE_FLEET_TEST_HOLD"
JOB_LIMIT = 240
errors = []


def fail(msg):
    errors.append(msg)
    print(f"check-fleet: FAIL: {msg}", file=sys.stderr, flush=True)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


def log(msg):
    print(f"check-fleet: {msg}", flush=True)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def stop(p):
    """End a process this test started (its whole process group: a job's
    LocalCluster workers too)."""
    if p.poll() is None:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


class Job:
    """The job as a subprocess in a process group of its own, its stderr
    to a file."""

    def __init__(self, args, name, extra_env=None):
        self.err_path = os.path.join(A.scratch, f"{name}.stderr")
        env = dict(os.environ)
        env.pop(HOLD_ENV, None)
        env.update(extra_env or {})
        self.err = open(self.err_path, "wb")
        self.p = subprocess.Popen(
            [PY, A.job, "--blockrange", A.blockrange] + args,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=self.err, env=env, start_new_session=True)
        self.t0 = time.monotonic()

    def wait(self):
        try:
            rc = self.p.wait(timeout=max(1, JOB_LIMIT -
                                         (time.monotonic() - self.t0)))
        except subprocess.TimeoutExpired:
            stop(self.p)
            rc = None
        self.err.close()
        self.stderr = read(self.err_path).decode(errors="replace")
        if rc is None:
            fail(f"{' '.join(self.p.args)}: no result within {JOB_LIMIT} s; "
                 f"stderr: {self.stderr.strip()!r}")
        return rc


def run_job(args, name):
    j = Job(args, name)
    return j.wait(), j.stderr


def oracle(inputs):
    d = os.path.join(A.scratch, "oracle")
    os.makedirs(d)
    outs = [os.path.join(d, f"{i:02d}.brprof") for i in range(len(inputs))]

    def prof(i):
        subprocess.run([A.blockrange, "profile", "-i", inputs[i], "-o",
                        outs[i], "-j", "1", "--no-progress"], check=True,
                       stderr=subprocess.DEVNULL)
    with ThreadPoolExecutor(2) as ex:
        list(ex.map(prof, range(len(inputs))))
    merged = os.path.join(d, "all.brprof")
    subprocess.run([A.blockrange, "merge"] + outs + ["-o", merged],
                   check=True, stderr=subprocess.DEVNULL)
    digests = {hashlib.sha256(read(p)).hexdigest() for p in outs}
    if not check(len(digests) == len(outs),
                 f"the {len(outs)} inputs give only {len(digests)} different "
                 f"profiles: a lost or doubled one could go unnoticed"):
        raise SystemExit(1)
    return outs, read(merged)


def case_local(inputs, profiles, want):
    """LocalCluster, 4 workers; one worker killed while it holds a task."""
    held_idx = 5
    hold = os.path.join(A.scratch, "hold")
    work = os.path.join(A.scratch, "work-local")
    os.makedirs(hold)
    os.makedirs(work)
    out = os.path.join(A.scratch, "local.brprof")
    stats = os.path.join(A.scratch, "local.json")
    job = Job(["--workers", "4", "--fan-in", "4", "--work-dir", work,
               "--keep-work", "--stats", stats, "-o", out] + inputs, "local",
              {HOLD_ENV: f"{held_idx}:{hold}"})
    held = os.path.join(hold, "held")
    while not os.path.exists(held) and job.p.poll() is None and \
            time.monotonic() - job.t0 < JOB_LIMIT:
        time.sleep(0.05)
    if not check(os.path.exists(held), "the held task never started"):
        stop(job.p)
        job.wait()
        return
    pid_s, tmp = read(held).decode().split()
    pid = int(pid_s)
    try:
        cmd = read(f"/proc/{pid}/cmdline").split(b"\0")
    except OSError:
        cmd = []
    # The worker is in the job's process group, not the job itself.
    ok = check(pid != job.p.pid and b"multiprocessing" in b" ".join(cmd) and
               os.getpgid(pid) == job.p.pid,
               f"pid {pid} of the held task is not a worker process of the "
               f"job (cmdline {cmd!r})")
    check(os.path.exists(tmp) and read(tmp) == read(profiles[held_idx]),
          f"the held attempt's uncommitted output {tmp} is missing or is not "
          f"the profile of input {held_idx}")
    if ok:
        os.kill(pid, signal.SIGKILL)
        log(f"local: killed worker process {pid} while it held the profile "
            f"task of input {held_idx}")
    rc = job.wait()
    check(rc == 0, f"local: exit status {rc}, stderr {job.stderr.strip()!r}")
    if rc != 0:
        return
    check(read(out) == want, "local: the merged profile differs from one "
          "merge of all the inputs' profiles")
    retried = os.path.join(hold, "retried")
    rpid = None
    if check(os.path.exists(retried), "local: the held task was not run "
             "again"):
        rpid = int(read(retried).split()[0])
        check(rpid != pid, f"local: the retry ran in the killed process "
              f"{pid}")
    kept = [os.path.join(work, d) for d in os.listdir(work)]
    check(len(kept) == 1, f"local: {len(kept)} work directories in {work}")
    check(os.path.exists(tmp), f"local: the killed attempt's file {tmp} is "
          f"gone (it should be left uncommitted in the kept work directory)")
    final = os.path.join(kept[0], "profiles", f"{held_idx:06d}.brprof")
    check(os.path.exists(final) and read(final) == read(profiles[held_idx]),
          f"local: {final} is not the profile of input {held_idx}")
    check("; 1 partial output of interrupted attempts discarded" in
          job.stderr, f"local: the summary does not report the discarded "
          f"attempt: {job.stderr.strip()!r}")
    check(len(job.stderr.strip().splitlines()) == 1,
          f"local: stderr is not one summary line: {job.stderr!r}")
    st = json.loads(read(stats))
    prof = [t for t in st["tasks"] if t["kind"] == "profile"]
    check(sorted(t["input"] for t in prof) == sorted(inputs),
          "local: the stats do not list one profile task per input")
    check([t["pid"] for t in prof if t["input"] == inputs[held_idx]] ==
          [rpid], "local: the held input's profile was not the retry's")
    check(st["interrupted_attempts"] == 1 and st["merges"] == 5 and
          st["depth"] == 2, f"local: stats {st['interrupted_attempts']} "
          f"interrupted, {st['merges']} merges, depth {st['depth']} (want "
          f"1, 5, 2)")


def start_cluster():
    d = os.path.join(A.scratch, "cluster")
    os.makedirs(d)
    sfile = os.path.join(d, "scheduler.json")
    procs = []

    def spawn(argv, name):
        f = open(os.path.join(d, name + ".log"), "wb")
        procs.append(subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                      stdout=f, stderr=f,
                                      start_new_session=True, cwd=d))
        f.close()
    spawn([A.dask_scheduler, "--host", "127.0.0.1", "--port", "0",
           "--no-dashboard", "--scheduler-file", sfile], "scheduler")
    t0 = time.monotonic()
    while not os.path.exists(sfile) and time.monotonic() - t0 < 60:
        time.sleep(0.05)
    addr = None
    for _ in range(100):
        try:
            addr = json.loads(read(sfile))["address"]
            break
        except (OSError, ValueError, KeyError):
            time.sleep(0.05)
    if addr is None:
        return procs, None, []
    for i in range(4):
        spawn([A.dask_worker, "--scheduler-file", sfile, "--nthreads", "1",
               "--no-nanny", "--no-dashboard", "--name", f"w{i}",
               "--local-directory", d], f"worker-{i}")
    from distributed import Client
    with Client(addr, timeout=60) as c:
        c.wait_for_workers(4, timeout=90)
        workers = sorted(c.scheduler_info()["workers"])
    return procs, addr, workers


def case_scheduler(inputs, want, addr, workers):
    d = os.path.join(A.scratch, "sched")
    os.makedirs(d)
    out = os.path.join(d, "fleet.brprof")
    stats = os.path.join(A.scratch, "sched.json")
    rc, err = run_job(["--scheduler", addr, "--fan-in", "3", "--stats",
                       stats, "-o", out] + inputs, "scheduler")
    if not check(rc == 0, f"scheduler: exit status {rc}, stderr "
                 f"{err.strip()!r}"):
        return
    check(read(out) == want, "scheduler: the merged profile differs from "
          "one merge of all the inputs' profiles")
    check(os.listdir(d) == ["fleet.brprof"], f"scheduler: {d} holds "
          f"{sorted(os.listdir(d))}, not only the output")
    st = json.loads(read(stats))
    used = {t["worker"] for t in st["tasks"]}
    check(used <= set(workers), f"scheduler: tasks ran on {sorted(used)}, "
          f"not on the cluster's workers {workers}")
    # 16 inputs, fan-in 3: 6 + 2 + 1 merges (the 16th profile and then the
    # 6th merge are carried up alone).
    check(st["merges"] == 8 and st["depth"] == 3, f"scheduler: {st['merges']}"
          f" merges, depth {st['depth']} (want 8, 3)")


def case_corrupt(inputs, addr):
    bad = os.path.join(A.scratch, "truncated.data")
    with open(bad, "wb") as f:
        f.write(read(inputs[7])[:4096])
    d = os.path.join(A.scratch, "corrupt")
    os.makedirs(d)
    out = os.path.join(d, "fleet.brprof")
    ins = inputs[:7] + [bad] + inputs[8:]
    rc, err = run_job(["--scheduler", addr, "--fan-in", "4", "-o", out] +
                      ins, "corrupt")
    check(rc == 2, f"corrupt: exit status {rc}, not 2")
    lines = err.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith(
        f"blockrange-fleet: error: {bad}: blockrange profile exited with "
        f"status 2: blockrange: {bad}: offset "),
        f"corrupt: stderr is not one line naming {bad} and blockrange's "
        f"complaint: {err!r}")
    check(os.listdir(d) == [], f"corrupt: {d} holds {os.listdir(d)}")


def case_usage(inputs):
    d = os.path.join(A.scratch, "usage")
    os.makedirs(d)
    out = os.path.join(d, "fleet.brprof")
    missing = os.path.join(A.scratch, "no-such.data")
    cases = [
        ([missing] + inputs[:2], f"blockrange-fleet: error: {missing}: no "
         f"such file"),
        (inputs[:2] + [inputs[0]], f"blockrange-fleet: error: {inputs[0]}: "
         f"the same file as {inputs[0]}; each recording may be given once"),
        (["--fan-in", "1"] + inputs[:2],
         "blockrange-fleet: error: --fan-in 1: at least 2"),
    ]
    for args, want in cases:
        rc, err = run_job(["-o", out] + args, "usage")
        check(rc == 1 and err.strip() == want,
              f"usage: {args[:2]}...: status {rc}, stderr {err!r}; want "
              f"status 1 and {want!r}")
    check(os.listdir(d) == [], f"usage: {d} holds {os.listdir(d)}")


def main():
    global A
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--job", required=True)
    ap.add_argument("--blockrange", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--dask-scheduler", default="/usr/bin/dask-scheduler")
    ap.add_argument("--dask-worker", default="/usr/bin/dask-worker")
    ap.add_argument("inputs", nargs="+")
    A = ap.parse_args()
    A.job = os.path.abspath(A.job)
    A.blockrange = os.path.abspath(A.blockrange)
    A.scratch = os.path.abspath(A.scratch)
    inputs = [os.path.abspath(p) for p in A.inputs]
    shutil.rmtree(A.scratch, ignore_errors=True)
    os.makedirs(A.scratch)

    t = time.monotonic()
    profiles, want = oracle(inputs)
    log(f"oracle: {len(inputs)} profiles and their merge "
        f"({len(want)} bytes) in {time.monotonic() - t:.1f} s")
    t = time.monotonic()
    case_usage(inputs)
    log(f"usage errors checked in {time.monotonic() - t:.1f} s")
    t = time.monotonic()
    case_local(inputs, profiles, want)
    log(f"local: LocalCluster with a killed worker checked in "
        f"{time.monotonic() - t:.1f} s")
    t = time.monotonic()
    procs, addr, workers = start_cluster()
    try:
        if check(addr is not None and len(workers) == 4,
                 f"the scheduler and 4 workers did not start (see "
                 f"{A.scratch}/cluster/*.log)"):
            log(f"cluster: dask-scheduler {addr} and {len(workers)} "
                f"dask-worker processes up in {time.monotonic() - t:.1f} s")
            t = time.monotonic()
            case_scheduler(inputs, want, addr, workers)
            log(f"scheduler: checked in {time.monotonic() - t:.1f} s")
            t = time.monotonic()
            case_corrupt(inputs, addr)
            log(f"corrupt: checked in {time.monotonic() - t:.1f} s")
    finally:
        for p in reversed(procs):
            stop(p)
    if errors:
        print(f"check-fleet: {len(errors)} failure(s)", file=sys.stderr)
        return 1
    log("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
