#!/usr/bin/env python3
"""Print a one-screen coverage summary from gcovr --json-summary files and
enforce the floors of coverage/thresholds.json.

usage: summary.py THRESHOLDS NAME=SUMMARY.json [NAME=SUMMARY.json ...]
Exit status 1 if a floor is not met (or a floor matches no file), else 0.
"""
import json
import sys


def pct(covered, total):
    return 100.0 * covered / total if total else 100.0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        floors = json.load(f)
    failed = []
    print(f"{'file':<52} {'lines':>17} {'branches':>17}")
    for arg in argv[2:]:
        name, _, path = arg.partition("=")
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            print(f"summary.py: {path}: cannot read gcovr summary: {e}",
                  file=sys.stderr)
            return 2
        files = report.get("files", [])
        print(f"[{name}]")
        for fi in sorted(files, key=lambda x: x["filename"]):
            print(f"  {fi['filename']:<50} "
                  f"{fi['line_covered']:>5}/{fi['line_total']:<5} {pct(fi['line_covered'], fi['line_total']):5.1f}% "
                  f"{fi['branch_covered']:>5}/{fi['branch_total']:<5} {pct(fi['branch_covered'], fi['branch_total']):5.1f}%")
        lc = sum(fi["line_covered"] for fi in files)
        lt = sum(fi["line_total"] for fi in files)
        bc = sum(fi["branch_covered"] for fi in files)
        bt = sum(fi["branch_total"] for fi in files)
        print(f"  {'total':<50} {lc:>5}/{lt:<5} {pct(lc, lt):5.1f}% "
              f"{bc:>5}/{bt:<5} {pct(bc, bt):5.1f}%")
        for prefix, metrics in floors.get(name, {}).items():
            sel = [fi for fi in files if fi["filename"].startswith(prefix)]
            if not sel:
                failed.append(f"{name}: no file matches '{prefix}'")
                continue
            for metric, floor in metrics.items():
                key = "line" if metric == "lines" else "branch"
                c = sum(fi[key + "_covered"] for fi in sel)
                t = sum(fi[key + "_total"] for fi in sel)
                got = pct(c, t)
                status = "ok" if got >= floor else "BELOW FLOOR"
                print(f"  floor {prefix} {metric} >= {floor}%: {got:.1f}% {status}")
                if got < floor:
                    failed.append(f"{name}: {prefix} {metric} {got:.1f}% < {floor}%")
    for msg in failed:
        print(f"coverage: {msg}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
