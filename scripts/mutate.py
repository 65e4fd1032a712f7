#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation testing of one C file: do the tests notice a wrong program?

usage: mutate.py FILE [--n N] [--seed S] [--timeout SECONDS]
                 [--test 'COMMAND'] [--report PATH] [--list]

Finds the places of FILE (comments, strings, character constants and
preprocessor lines excepted) where one small change gives another valid
program, and makes N of them (a seeded sample, each place once):

  comparison   <  <=  >  >=  ==  !=   each to a neighbour (< to <=, == to !=)
  operator     +  -   <<  >>   &&  ||   swapped with its pair
  constant     an integer literal n (decimal, hex, octal) to n + 1, 1 to 0
  condition    if (X)  to  if (!(X))

Each mutant is written over FILE, built and tested by COMMAND (by default
the suite that covers FILE: the library suite for userspace/lib/, KUnit of
our core on 6.1 for kernel/drivers/hwmon/hwmon.c), then FILE is restored.
A mutant is killed when COMMAND fails, survives when it passes, times out
when it runs past --timeout (counted as killed: the tests noticed), and is
stillborn when the failure is the compiler's (the change did not build;
not counted).  The report lists every mutant with its line, the change and
the outcome, survivors first.  FILE is restored on any exit, interrupts
included.
"""
import argparse
import os
import random
import re
import signal
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEFAULT_TESTS = [
    ("userspace/lib/", "make --no-print-directory check-userspace"),
    ("kernel/drivers/hwmon/hwmon.c",
     "BUILD=%s/build KERNEL=6.1 scripts/check-kernel.sh --no-bench ours"
     % TOP),
]

# The compiler's failure, as make and kbuild print it.
BUILD_ERROR = re.compile(r"(error: |\*\*\* \[.*\.o\] Error|Error \d+.*\.o\])")


def mask_code(text):
    """@text with comments, strings, character constants and preprocessor
    lines replaced by spaces (newlines kept), so that offsets line up."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                    continue
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


COMPARE = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=",
           "!=": "=="}
SWAP = {"+": "-", "-": "+", "<<": ">>", ">>": "<<", "&&": "||", "||": "&&"}
TOKEN = re.compile(
    r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||"
    r"\+\+|--|->|\+=|-=|[A-Za-z_]\w*|[<>+\-]|\S")


def sites(text):
    """Every (offset, length, replacement, kind) of @text."""
    code = mask_code(text)
    found = []
    prev = None
    for m in TOKEN.finditer(code):
        tok, at = m.group(0), m.start()
        if tok in COMPARE:
            # < and > of #include are masked; template-like uses do not
            # occur in C.
            found.append((at, len(tok), COMPARE[tok], "comparison"))
        elif tok in SWAP:
            # binary + and - only: after an operand
            if tok in "+-" and not (prev and (re.fullmatch(r"\w+", prev) or
                                              prev in (")", "]"))):
                prev = tok
                continue
            found.append((at, len(tok), SWAP[tok], "operator"))
        elif re.fullmatch(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*", tok) and \
                not (prev and re.fullmatch(r"[A-Za-z_]\w*", prev)):
            digits = re.match(r"0[xX][0-9a-fA-F]+|\d+", tok).group(0)
            suffix = tok[len(digits):]
            if digits.lower().startswith("0x"):
                value, fmt = int(digits, 16), hex
            elif len(digits) > 1 and digits[0] == "0":
                value, fmt = int(digits, 8), lambda v: "0%o" % v
            else:
                value, fmt = int(digits), str
            rep = fmt(0 if value == 1 else value + 1) + suffix
            found.append((at, len(tok), rep, "constant"))
        elif tok == "if":
            m2 = re.compile(r"\s*\(").match(code, m.end())
            if m2:
                open_at = m2.end() - 1
                depth, j = 0, open_at
                while j < len(code):
                    if code[j] == "(":
                        depth += 1
                    elif code[j] == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                inner = text[open_at + 1:j]
                found.append((open_at, j + 1 - open_at,
                              "(!(" + inner + "))", "condition"))
        prev = tok
    return found


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def default_test(path):
    rel = os.path.relpath(os.path.abspath(path), TOP)
    for prefix, cmd in DEFAULT_TESTS:
        if rel.startswith(prefix):
            return cmd
    return None


def run(cmd, timeout, log):
    start = time.monotonic()
    with open(log, "w") as f:
        p = subprocess.Popen(cmd, shell=True, cwd=TOP, stdout=f,
                             stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_session(p.pid)
            p.wait()
            rc = None
    return rc, time.monotonic() - start


def kill_session(sid):
    """SIGKILL to every process of session @sid: the command's process
    group and the groups of its own (Check puts each forked test in a
    group of its own, which killpg() would not reach)."""
    os.killpg(sid, signal.SIGKILL)
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.getsid(int(pid)) == sid:
                os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--test")
    ap.add_argument("--report")
    ap.add_argument("--list", action="store_true",
                    help="print the sampled mutants and stop")
    args = ap.parse_args()

    path = os.path.abspath(args.file)
    with open(path) as f:
        original = f.read()
    test = args.test or default_test(path)
    if not test:
        sys.exit("mutate: no default test for %s; give --test" % args.file)
    all_sites = sites(original)
    if not all_sites:
        sys.exit("mutate: %s: no place to mutate" % args.file)
    rng = random.Random(args.seed)
    chosen = sorted(rng.sample(all_sites, min(args.n, len(all_sites))))
    mutants = []
    for at, length, rep, kind in chosen:
        mutants.append({
            "line": line_of(original, at), "kind": kind,
            "from": re.sub(r"\s+", " ", original[at:at + length]),
            "to": re.sub(r"\s+", " ", rep),
            "text": original[:at] + rep + original[at + length:],
        })
    if args.list:
        for m in mutants:
            print("%s:%d %s: %s -> %s" % (args.file, m["line"], m["kind"],
                                          m["from"], m["to"]))
        return 0

    rel = os.path.relpath(path, TOP)
    outdir = os.path.join(TOP, "build", "mutate")
    os.makedirs(outdir, exist_ok=True)
    report = args.report or os.path.join(
        outdir, "%s-%s.txt" % (rel.replace("/", "_"),
                               time.strftime("%Y%m%dT%H%M%S")))

    def restore(*_):
        with open(path, "w") as f:
            f.write(original)
        if _:
            sys.exit("mutate: interrupted; %s restored" % args.file)

    signal.signal(signal.SIGINT, restore)
    signal.signal(signal.SIGTERM, restore)
    print("mutate: %d of %d places of %s, test: %s" % (
        len(mutants), len(all_sites), rel, test), flush=True)
    try:
        # The unmutated file must pass, or nothing below means anything.
        rc, secs = run(test, args.timeout, os.path.join(outdir, "base.log"))
        if rc != 0:
            sys.exit("mutate: the test fails without a mutant (see %s)"
                     % os.path.join(outdir, "base.log"))
        for i, m in enumerate(mutants, 1):
            with open(path, "w") as f:
                f.write(m["text"])
            log = os.path.join(outdir, "mutant-%d.log" % i)
            rc, secs = run(test, args.timeout, log)
            if rc is None:
                m["result"] = "timeout"
            elif rc == 0:
                m["result"] = "survived"
            else:
                with open(log, errors="replace") as f:
                    built = not BUILD_ERROR.search(f.read())
                m["result"] = "killed" if built else "stillborn"
            m["secs"] = secs
            print("mutate: %d/%d %s:%d %s -> %s: %s (%.0f s)" % (
                i, len(mutants), rel, m["line"], m["from"], m["to"],
                m["result"], secs), flush=True)
    finally:
        restore()
    # Rebuild what the last mutant left.
    run(test, args.timeout, os.path.join(outdir, "restore.log"))

    counts = {}
    for m in mutants:
        counts[m["result"]] = counts.get(m["result"], 0) + 1
    valid = len(mutants) - counts.get("stillborn", 0)
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    order = {"survived": 0, "timeout": 1, "killed": 2, "stillborn": 3}
    with open(report, "w") as f:
        f.write("mutate %s: %d mutants (seed %d) of %d places; test: %s\n"
                % (rel, len(mutants), args.seed, len(all_sites), test))
        f.write("killed %d of %d that built (%d by timeout), %d survived, "
                "%d did not build\n\n" % (
                    killed, valid, counts.get("timeout", 0),
                    counts.get("survived", 0), counts.get("stillborn", 0)))
        for m in sorted(mutants, key=lambda m: (order[m["result"]],
                                                m["line"])):
            f.write("%-9s %s:%d %s: %s -> %s\n" % (
                m["result"], rel, m["line"], m["kind"], m["from"], m["to"]))
    with open(report) as f:
        sys.stdout.write(f.read())
    print("mutate: report in %s" % report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
