#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""blockrange-fleet: profile perf.data files on Dask, merge them as a tree.

  fleet.py -o FLEET.brprof [options] INPUT.data...

Maps `blockrange profile` over the inputs on Dask workers, one task per
input, then reduces the profiles with a tree of `blockrange merge` tasks,
FAN_IN profiles per merge.  `blockrange merge` is commutative and
associative byte for byte, so the result is the file one `blockrange merge`
of all the per-input profiles writes.

Cluster: a LocalCluster on the local host (--workers processes of
--threads-per-worker threads; default one single-threaded worker per CPU),
or any running scheduler with --scheduler ADDRESS (dask-scheduler and
dask-worker; the job then only submits tasks and never stops the cluster).

Data: the tasks exchange paths, never profile bytes.  Every file the job
reads or writes (inputs, the work directory, the output, the blockrange
binary) must be at the same path on the job's machine and on every worker
(a shared filesystem); the scheduler only carries the paths.  The work
directory is a new directory beside the output unless --work-dir is given,
and is removed at the end unless --keep-work.

Failure semantics: every task writes its file under a name of its own
(NAME.tmp-PID-RANDOM) and renames it to its final name when it is complete;
a merge reads only final names, and the tree is fixed before anything runs,
so each input is counted exactly once whichever attempt produced its
profile.  A worker that dies (killed, out of memory, host lost) loses its
running task and the results it held; the scheduler runs them again on
another worker (up to distributed.scheduler.allowed-failures times per
task), the interrupted attempt's temporary file is discarded.  An input or
a profile that blockrange refuses fails the job: one line on stderr names
the file and blockrange's message, exit status 2.

Exit status: 0 success, 1 usage, I/O or cluster error (including a task
that killed too many workers), 2 an input or profile refused by blockrange.

Run it with Debian's Python 3 (/usr/bin/python3, packages python3-dask and
python3-distributed); see docs/fleet.md.
"""

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

PROG = "blockrange-fleet"

# Test-only: "INDEX:DIR" makes the first attempt of the profile task of
# input INDEX (0-based) wait, once its output is complete but before it is
# renamed, until its worker is killed (see check-tests/dask/).
HOLD_ENV = "BLOCKRANGE_FLEET_TEST_HOLD"
HOLD_LIMIT = 120.0

TIME = "/usr/bin/time"


class UsageError(Exception):
    pass


# ---- tasks (run on the workers; only the standard library and distributed) --

def _run(argv):
    """Run @argv with its stderr captured; returns (status, stderr text,
    {wall, cpu, maxrss}).  cpu from wait4; maxrss is the command's own peak
    resident set, measured by GNU time (/usr/bin/time) when the worker has
    it: wait4's figure would also count the worker process, whose memory
    the child shares until it execs (maxrss_exact then False)."""
    exe = shutil.which(argv[0])
    if exe is None:
        raise RuntimeError(f"{argv[0]}: not found or not executable on "
                           f"worker {_worker_address() or os.uname()[1]}", 1)
    timed = os.access(TIME, os.X_OK)
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as tf:
        cmd = [exe] + argv[1:]
        if timed:
            cmd = [TIME, "-f", "%M", "-o", tf.name, "--"] + cmd
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
        maxrss, exact = ru.ru_maxrss * 1024, False
        if timed:
            lines = tf.read().split()
            if lines and lines[-1].isdigit():
                maxrss, exact = int(lines[-1]) * 1024, True
    return p.returncode, text, {"wall": time.monotonic() - t0,
                                "cpu": ru.ru_utime + ru.ru_stime,
                                "maxrss": maxrss, "maxrss_exact": exact}


def _complaint(text):
    """blockrange's error line out of its stderr: the last line that is not
    a warning, its summary or 'wrote ...'."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    keep = [ln for ln in lines
            if not ln.startswith("blockrange: warning:")
            and not ln.startswith("blockrange: wrote ")
            and " samples, " not in ln]
    if keep:
        return keep[-1]
    return lines[-1] if lines else "(no message)"


def _check(status, text, what, name):
    if status == 0:
        return
    how = (f"exited with status {status}" if status > 0
           else f"was killed by signal {-status}")
    # blockrange's own statuses: 2 is bad input, 1 usage or I/O.
    raise RuntimeError(f"{name}: {what} {how}: {_complaint(text)}",
                       2 if status == 2 else 1)


def _tmp_name(final):
    return f"{final}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def _worker_address():
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return None


def _hold(hold_dir, tmp, name):
    """The test hook: the first attempt waits to be killed, a later one
    notes its pid and goes on."""
    me = os.path.join(hold_dir, f"attempt-{os.getpid()}-{uuid.uuid4().hex}")
    with open(me, "w") as f:
        f.write(f"{os.getpid()} {tmp}\n")
    try:
        os.link(me, os.path.join(hold_dir, "held"))
    except FileExistsError:
        os.replace(me, os.path.join(hold_dir, "retried"))
        return
    deadline = time.monotonic() + HOLD_LIMIT
    while time.monotonic() < deadline:
        time.sleep(0.05)
    raise RuntimeError(f"{name}: test hold: the worker was not killed "
                       f"within {HOLD_LIMIT:.0f} s", 1)


def _produce(argv, tmp, dst, what, name, hold_dir=None):
    """Run @argv, which writes @tmp; on success rename @tmp to @dst (after
    the test hold, if any), else remove it and raise with @name.  Returns
    the command's figures."""
    status, text, use = _run(argv)
    if status != 0:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    _check(status, text, what, name)
    if hold_dir is not None:
        _hold(hold_dir, tmp, name)
    os.replace(tmp, dst)
    return dict(use, path=dst, pid=os.getpid(), worker=_worker_address(),
                bytes=os.path.getsize(dst))


def profile_task(blockrange, src, dst, jobs, extra, hold_dir):
    """blockrange profile -i @src -o @dst, written under a temporary name,
    then renamed."""
    tmp = _tmp_name(dst)
    argv = [blockrange, "profile", "-i", src, "-o", tmp, "-j", str(jobs),
            "--no-progress"] + list(extra)
    return dict(_produce(argv, tmp, dst, "blockrange profile", src,
                         hold_dir), kind="profile", input=src)


def merge_task(blockrange, parts, dst):
    """blockrange merge of the files of @parts (the results of earlier
    tasks) into @dst, written under a temporary name, then renamed."""
    tmp = _tmp_name(dst)
    srcs = [p["path"] for p in parts]
    return dict(_produce([blockrange, "merge"] + srcs + ["-o", tmp], tmp,
                         dst, "blockrange merge", dst), kind="merge",
                inputs=srcs)


def worker_memory():
    """The worker process's peak and current resident set (VmHWM, VmRSS):
    its own memory, apart from the commands it runs."""
    v = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmHWM:", "VmRSS:")):
                k, n, _ = line.split()
                v[k[:-1].lower()] = int(n) * 1024
    return v


# ---- the job (the client) --------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="Profile many perf.data files with `blockrange profile` "
        "on Dask workers and merge the profiles with a tree of `blockrange "
        "merge`; the result is, byte for byte, one merge of all of them.",
        epilog="Every path must be the same on the workers (shared "
        "filesystem): the tasks pass paths, not bytes.  Exit status: 0 "
        "success, 1 usage, I/O or cluster error, 2 an input or profile "
        "refused by blockrange.  See docs/fleet.md.")
    ap.add_argument("inputs", nargs="*", metavar="INPUT",
                    help="perf.data files (or perf script text), one "
                    "profile each")
    ap.add_argument("-o", "--output", required=True, metavar="FILE.brprof",
                    help="the merged profile (written atomically)")
    ap.add_argument("--inputs-from", metavar="FILE",
                    help="more inputs, one path a line (- is stdin)")
    ap.add_argument("--fan-in", type=int, default=8, metavar="K",
                    help="profiles per merge task (default 8, at least 2)")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="use this running scheduler (tcp://HOST:PORT) "
                    "instead of a LocalCluster")
    ap.add_argument("--workers", type=int, metavar="N",
                    help="LocalCluster: worker processes (default: the "
                    "online CPUs)")
    ap.add_argument("--threads-per-worker", type=int, default=1, metavar="T",
                    help="LocalCluster: threads per worker, i.e. commands "
                    "run at once by each (default 1)")
    ap.add_argument("--blockrange", default=os.environ.get("BLOCKRANGE",
                                                           "blockrange"),
                    metavar="PATH", help="the blockrange binary on the "
                    "workers (default $BLOCKRANGE, else blockrange on PATH)")
    ap.add_argument("--profile-jobs", type=int, default=1, metavar="J",
                    help="-j of each blockrange profile (default 1: the "
                    "parallelism is the cluster's)")
    ap.add_argument("--profile-arg", action="append", default=[],
                    metavar="ARG", help="one more argument for every "
                    "blockrange profile (repeatable), e.g. "
                    "--profile-arg=--symfs=/srv/root")
    ap.add_argument("--work-dir", metavar="DIR",
                    help="where the per-input and intermediate profiles go "
                    "(a new directory is made inside; default: beside the "
                    "output)")
    ap.add_argument("--keep-work", action="store_true",
                    help="keep the work directory (its path is printed)")
    ap.add_argument("--stats", metavar="FILE",
                    help="write per-task and per-worker figures as JSON")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no summary line")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="Dask's own log messages (warnings and up)")
    return ap.parse_args(argv)


def read_inputs(args):
    inputs = list(args.inputs)
    if args.inputs_from:
        try:
            if args.inputs_from == "-":
                text = sys.stdin.read()
            else:
                with open(args.inputs_from) as f:
                    text = f.read()
        except OSError as e:
            raise UsageError(f"{args.inputs_from}: {e.strerror}") from None
        inputs += [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not inputs:
        raise UsageError("no inputs (give INPUT... or --inputs-from FILE)")
    seen = {}
    out = []
    for p in inputs:
        a = os.path.abspath(p)
        if not os.path.isfile(a):
            what = "not a regular file" if os.path.exists(a) else \
                "no such file"
            raise UsageError(f"{p}: {what}")
        if not os.access(a, os.R_OK):
            raise UsageError(f"{p}: not readable")
        r = os.path.realpath(a)
        if r in seen:
            raise UsageError(f"{p}: the same file as {seen[r]}; each "
                             f"recording may be given once")
        seen[r] = p
        out.append(a)
    return out


def check_args(args):
    if args.fan_in < 2:
        raise UsageError(f"--fan-in {args.fan_in}: at least 2")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers {args.workers}: at least 1")
    if args.threads_per_worker < 1:
        raise UsageError(f"--threads-per-worker {args.threads_per_worker}: "
                         f"at least 1")
    if args.profile_jobs < 1:
        raise UsageError(f"--profile-jobs {args.profile_jobs}: at least 1")
    if args.scheduler and args.workers is not None:
        raise UsageError("--workers is for the LocalCluster; the workers of "
                         "--scheduler are started with dask-worker")
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise UsageError(f"{args.output}: its directory does not exist")
    bin_ = args.blockrange
    if os.sep in bin_:
        bin_ = os.path.abspath(bin_)
    elif not args.scheduler:
        found = shutil.which(bin_)
        if not found:
            raise UsageError(f"{bin_}: not found on PATH (--blockrange PATH)")
        bin_ = found
    if not args.scheduler and not os.access(bin_, os.X_OK):
        raise UsageError(f"{bin_}: not an executable")
    args.blockrange = bin_


def hold_hook(n):
    spec = os.environ.get(HOLD_ENV)
    if not spec:
        return None, None
    idx, _, d = spec.partition(":")
    try:
        i = int(idx)
    except ValueError:
        i = -1
    if not 0 <= i < n or not os.path.isdir(d):
        raise UsageError(f"{HOLD_ENV}={spec}: expected INDEX:DIR with "
                         f"0 <= INDEX < {n} and DIR a directory")
    return i, os.path.abspath(d)


def chunks(seq, k):
    return [seq[i:i + k] for i in range(0, len(seq), k)]


def submit_tree(client, args, inputs, work, token, hold):
    """Submit one profile task per input and the merge tree; returns (the
    root future, every future, {key: what it makes}, the number of merges,
    the depth)."""
    os.makedirs(os.path.join(work, "profiles"))
    hold_idx, hold_dir = hold
    level, labels = [], {}
    for i, src in enumerate(inputs):
        dst = os.path.join(work, "profiles", f"{i:06d}.brprof")
        key = f"profile-{i}-{token}"
        labels[key] = f"{src}: its profile"
        level.append(client.submit(
            profile_task, args.blockrange, src, dst, args.profile_jobs,
            args.profile_arg, hold_dir if i == hold_idx else None,
            key=key, pure=False))
    futures = list(level)
    merges = depth = 0
    # A group of one is carried up unchanged; the root is always a merge
    # (a single input too), so the output is always merge's canonical form.
    while len(level) > 1 or depth == 0:
        depth += 1
        nxt = []
        for j, grp in enumerate(chunks(level, args.fan_in)):
            if len(grp) == 1 and len(level) > 1:
                nxt.append(grp[0])
                continue
            dst = os.path.join(work, f"merge-{depth}-{j:06d}.brprof")
            key = f"merge-{depth}-{j}-{token}"
            labels[key] = f"{dst}: the merge of {len(grp)} profiles"
            f = client.submit(merge_task, args.blockrange, grp, dst,
                              key=key, pure=False)
            nxt.append(f)
            futures.append(f)
            merges += 1
        level = nxt
    return level[0], futures, labels, merges, depth


def place_output(src, dst):
    """Move @src to @dst atomically (a copy beside @dst first when they are
    on different filesystems)."""
    try:
        os.replace(src, dst)
        return
    except OSError as e:
        import errno
        if e.errno != errno.EXDEV:
            raise
    tmp = _tmp_name(dst)
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def partials(work):
    n = 0
    for _root, _dirs, files in os.walk(work):
        n += sum(".tmp-" in f for f in files)
    return n


def start_cluster(args):
    from distributed import Client, LocalCluster
    if args.scheduler:
        try:
            client = Client(args.scheduler)
        except (OSError, TimeoutError) as e:
            raise UsageError(f"cannot connect to the scheduler "
                             f"{args.scheduler}: {e}") from None
        return None, client, f"the scheduler {args.scheduler}"
    n = args.workers or len(os.sched_getaffinity(0))
    quiet = logging.WARNING if args.verbose else logging.CRITICAL
    cluster = LocalCluster(n_workers=n,
                           threads_per_worker=args.threads_per_worker,
                           processes=True, dashboard_address=None,
                           silence_logs=quiet)
    client = Client(cluster)
    return cluster, client, (f"a LocalCluster of {n} worker"
                             f"{'s' if n != 1 else ''} x "
                             f"{args.threads_per_worker} thread"
                             f"{'s' if args.threads_per_worker != 1 else ''}")


class StderrToLog:
    """Point file descriptor 2 at @path while the cluster runs, so that
    what Dask's processes print (the LocalCluster's workers inherit it,
    tracebacks of their shutdown included) goes to the log and the job's
    own stderr keeps to its one line; sys.stderr keeps the real one."""

    def __init__(self, path):
        self.path = path
        self.saved = None

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
        self.real = sys.stderr
        sys.stderr = open(os.dup(self.saved), "w", buffering=1)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        sys.stderr.close()
        sys.stderr = self.real
        os.dup2(self.saved, 2)
        os.close(self.saved)
        return False


class TaskFailure(Exception):
    def __init__(self, exc, labels):
        super().__init__(exc)
        self.exc = exc
        self.labels = labels


def run(args):
    """The job; returns the summary line."""
    check_args(args)
    inputs = read_inputs(args)
    hold = hold_hook(len(inputs))
    out = os.path.abspath(args.output)
    base = os.path.abspath(args.work_dir) if args.work_dir else \
        os.path.dirname(out)
    try:
        work = tempfile.mkdtemp(prefix=".blockrange-fleet-", dir=base)
    except OSError as e:
        raise UsageError(f"{base}: cannot make the work directory: "
                         f"{e.strerror}") from None
    if not args.verbose:
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
    t0 = time.monotonic()
    try:
        if args.verbose:
            res = compute(args, inputs, out, work, hold)
        else:
            with StderrToLog(os.path.join(work, "dask.log")):
                res = compute(args, inputs, out, work, hold)
    finally:
        if not args.keep_work:
            shutil.rmtree(work, ignore_errors=True)
    t3 = time.monotonic()
    size = os.path.getsize(out)
    in_bytes = sum(os.path.getsize(p) for p in inputs)
    if args.stats:
        stats = {"inputs": len(inputs), "input_bytes": in_bytes,
                 "fan_in": args.fan_in, "output": out, "output_bytes": size}
        stats.update(res)
        stats["seconds"]["total"] = t3 - t0
        with open(args.stats + ".tmp", "w") as f:
            json.dump(stats, f, indent=1)
        os.replace(args.stats + ".tmp", args.stats)
    n, m = len(inputs), res["merges"]
    line = (f"{PROG}: {n} input{'s' if n != 1 else ''} "
            f"({in_bytes / 1e6:.1f} MB) profiled, {m} merge"
            f"{'s' if m != 1 else ''} (fan-in {args.fan_in}, depth "
            f"{res['depth']}) on {res['cluster']} in {t3 - t0:.1f} s")
    k = res["interrupted_attempts"]
    if k:
        line += (f"; {k} partial output{'s' if k != 1 else ''} of "
                 f"interrupted attempts discarded")
    if args.keep_work:
        line += f"; work files kept in {work}"
    return f"{line}; wrote {args.output} ({size} bytes)"


def compute(args, inputs, out, work, hold):
    """Start or join the cluster, run the tree, place the output; returns
    the figures of the run."""
    t0 = time.monotonic()
    cluster = client = None
    futures, labels = [], {}
    ok = False
    try:
        cluster, client, where = start_cluster(args)
        t1 = time.monotonic()
        token = uuid.uuid4().hex[:12]
        root, futures, labels, merges, depth = submit_tree(
            client, args, inputs, work, token, hold)
        try:
            res = root.result()
        except Exception as e:
            raise TaskFailure(e, labels) from None
        t2 = time.monotonic()
        place_output(res["path"], out)
        tasks = client.gather(futures)
        mem = client.run(worker_memory)
        ok = True
    finally:
        if not ok and client is not None:
            try:
                client.cancel(futures)
            except Exception:
                pass
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return {"cluster": where, "merges": merges, "depth": depth,
            "interrupted_attempts": partials(work),
            "seconds": {"cluster_start": t1 - t0, "compute": t2 - t1},
            "tasks": tasks, "worker_memory": mem}


def describe(exc, labels):
    """One line and an exit status for what a task raised."""
    name = type(exc).__name__
    if name == "KilledWorker":
        key = exc.args[0] if exc.args else "?"
        n = exc.args[2] if len(exc.args) > 2 else None
        limit = f" (distributed.scheduler.allowed-failures is {n})" \
            if isinstance(n, int) else ""
        return (f"{labels.get(key, key)}: the worker running it died too "
                f"many times{limit}; giving up", 1)
    if isinstance(exc, RuntimeError) and len(exc.args) == 2 and \
            isinstance(exc.args[1], int):
        return exc.args[0], exc.args[1]
    if isinstance(exc, OSError):
        return f"{exc.filename or ''}: {exc.strerror or exc}", 1
    return f"{name}: {exc}", 1


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        line = run(args)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except TaskFailure as e:
        msg, status = describe(e.exc, e.labels)
        print(f"{PROG}: error: {msg}", file=sys.stderr)
        return status
    except OSError as e:
        print(f"{PROG}: error: {e.filename or ''}: {e.strerror or e}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    if not args.quiet:
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
