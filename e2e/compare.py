#!/usr/bin/env python3
"""Compare the e2e dumps of our hwmon core and of the stock core.

usage: compare.py OURS_DUMP STOCK_DUMP INTENDED_DIFFERENCES

Prints the diff stock -> ours with every changed line marked either as an
intended difference (a rule of INTENDED_DIFFERENCES explains it) or as
UNEXPECTED, then checks both dumps for what the end-to-end test requires:
the NVMe composite temperature, temp1_max taking the value the guest wrote,
and `sensors` showing the nvme, test_battery and hwmon_fake chips.
Exit status 0 only if there is no unexpected difference, every intended
difference rule is exercised and every check passes; 1 otherwise; 2 for
unusable input (missing file, malformed dump or rules file).

Rules file format (blank lines and lines starting with '#' are ignored):

    [rule-name]
    why: one line saying why the difference is intended
    stock: REGEX      (Python re, matched against a whole line of the stock dump)
    ours: REPLACEMENT (re.sub replacement: the line our core prints instead)
"""

import difflib
import re
import sys

BEGIN, END = "@@E2E-BEGIN@@", "@@E2E-END@@"
FILES_SECTION = "== hwmon files"
NVME_WRITE = 79850  # the value e2e/dump.sh writes into the NVMe temp1_max
CHIPS = ("nvme", "test_battery", "hwmon_fake")
# The hwmon devices each dump must have, by (name, device). No pair may
# appear twice; others may appear (on 6.1 the thermal core's hwmon bridge of
# test_battery's thermal zone, test_battery of thermal_zone0: the test
# kernel has CONFIG_THERMAL_HWMON, and 6.1's power supply class lets the
# thermal core bridge its zones beside its own hwmon device).
DEVICES = (("nvme", "nvme0"), ("test_battery", "test_battery"),
           ("hwmon_fake", "hwmon-fake"))


class InputError(Exception):
    pass


class Rule:
    def __init__(self, name, where):
        self.name, self.where = name, where
        self.why = self.stock = self.ours = None


def read_rules(path):
    rules = []
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    for n, line in enumerate(lines, 1):
        where = f"{path}:{n}"
        if not line.strip() or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[([A-Za-z0-9_.-]+)\]", line)
        if m:
            rules.append(Rule(m.group(1), where))
            continue
        m = re.fullmatch(r"(why|stock|ours): (.+)", line)
        if not m:
            raise InputError(f"{where}: expected '[name]', 'why: ...', "
                             f"'stock: REGEX' or 'ours: REPLACEMENT', got {line!r}")
        if not rules:
            raise InputError(f"{where}: '{m.group(1)}:' before the first [name]")
        key, val = m.groups()
        if getattr(rules[-1], key) is not None:
            raise InputError(f"{where}: second '{key}:' in [{rules[-1].name}]")
        if key == "stock":
            try:
                val = re.compile(val)
            except re.error as e:
                raise InputError(f"{where}: bad regular expression: {e}")
        setattr(rules[-1], key, val)
    for r in rules:
        for key in ("why", "stock", "ours"):
            if getattr(r, key) is None:
                raise InputError(f"{r.where}: [{r.name}] lacks '{key}:'")
    return rules


def read_dump(path):
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    if BEGIN not in lines or END not in lines:
        raise InputError(f"{path}: not a complete e2e dump "
                         f"(expected lines {BEGIN} ... {END})")
    return lines[lines.index(BEGIN):lines.index(END) + 1]


def sections(lines):
    """Map '== title' -> list of lines following it."""
    out, cur = {}, None
    for line in lines:
        if line.startswith("== "):
            cur = out.setdefault(line, [])
        elif cur is not None and line != END:
            cur.append(line)
    return out


def file_key(line):
    return line.split(" ", 1)[0].rstrip("/")


DEVICES_SECTION = "== hwmon devices"
SENSORS_SECTIONS = ("== sensors", "== sensors -u")
HWMON_RE = re.compile(r"\bhwmon(\d+)\b")


def hwmon_numbers(lines):
    """hwmonN -> its place among the devices sorted by (name, device).

    The kernel numbers hwmon devices in the order they register, and the
    NVMe controller registers from a work item that may run before or after
    the fake chip's initcall: the same system can be numbered two ways."""
    devices = []
    for d in sections(lines).get(DEVICES_SECTION, []):
        m = re.fullmatch(r"hwmon(\d+) name=(\S+) device=(\S+)", d)
        if m:
            devices.append((m.group(2), m.group(3), int(m.group(1))))
    return {n: i for i, (_, _, n) in enumerate(sorted(devices))}


def canonical(lines):
    """The dump as it reads whatever order the devices registered in: hwmon
    devices renumbered by (name, device), the devices and files sections
    sorted (so that a renamed file compares equal wherever the guest's sort
    put it), and the chips of each sensors section in sorted order."""
    numbers = hwmon_numbers(lines)

    def renumber(line):
        return HWMON_RE.sub(
            lambda m: "hwmon%d" % numbers.get(int(m.group(1)), int(m.group(1))),
            line)

    out, section, block = [], None, []

    def flush():
        if section == FILES_SECTION:
            out.extend(sorted(block, key=file_key))
        elif section == DEVICES_SECTION:
            out.extend(sorted(block))
        elif section in SENSORS_SECTIONS:
            chips, chip, tail = [], [], []
            for line in block:
                if line.startswith("sensors") and "exit status" in line:
                    tail.append(line)
                elif line == "":
                    if chip:
                        chips.append(chip)
                    chip = []
                else:
                    chip.append(line)
            if chip:
                chips.append(chip)
            for c in sorted(chips):
                out.extend(c)
                out.append("")
            out.extend(tail)
        else:
            out.extend(block)

    for line in lines:
        line = renumber(line)
        if line.startswith("== ") or line == END:
            flush()
            block = []
            section = line
            out.append(line)
        else:
            block.append(line)
    flush()
    return out


def apply_rules(rules, line):
    for r in rules:
        if r.stock.fullmatch(line):
            return r.stock.sub(r.ours, line), r
    return line, None


def check_dump(core, lines):
    """Requirements on one dump; returns a list of failures."""
    errs = []
    sec = sections(lines)
    devices = sec.get("== hwmon devices", [])
    names = {}
    for d in devices:
        m = re.fullmatch(r"(hwmon\d+) name=(\S+) device=(\S+)", d)
        if not m:
            errs.append(f"{core}: malformed hwmon device line {d!r}")
            continue
        names.setdefault((m.group(2), m.group(3)), []).append(m.group(1))
    for dev in DEVICES:
        if len(names.get(dev, [])) != 1:
            errs.append(f"{core}: expected one hwmon device named {dev[0]} "
                        f"of device {dev[1]}, found {len(names.get(dev, []))}")
    for dev, hw in sorted(names.items()):
        if dev not in DEVICES and len(hw) != 1:
            errs.append(f"{core}: {len(hw)} hwmon devices named {dev[0]} "
                        f"of device {dev[1]}: {' '.join(hw)}")

    files = {file_key(f): f for f in sec.get(FILES_SECTION, [])}
    nv = names.get(("nvme", "nvme0"), ["?"])[0]
    label = files.get(f"{nv}/temp1_label", "")
    if not label.endswith(" = Composite"):
        errs.append(f"{core}: {nv}/temp1_label is not 'Composite': {label!r}")
    inp = files.get(f"{nv}/temp1_input", "")
    if not re.fullmatch(rf"{nv}/temp1_input 444 = -?\d+", inp):
        errs.append(f"{core}: no readable NVMe composite temperature: {inp!r}")
    mx = files.get(f"{nv}/temp1_max", "")
    if not re.fullmatch(rf"{nv}/temp1_max 644 = -?\d+", mx):
        errs.append(f"{core}: NVMe temp1_max is not a readable mode 644 file: {mx!r}")

    nvw = sec.get("== nvme temp1_max", [])
    want = [rf"{nv} temp1_input = -?\d+",
            rf"{nv} temp1_max before = (-?\d+)",
            rf"{nv} temp1_max write {NVME_WRITE} = ok",
            rf"{nv} temp1_max after = {NVME_WRITE}"]
    if len(nvw) != len(want) or not all(re.fullmatch(w, l) for w, l in zip(want, nvw)):
        errs.append(f"{core}: NVMe temp1_max did not take {NVME_WRITE}: "
                    + " | ".join(nvw))
    elif re.fullmatch(want[1], nvw[1]).group(1) == str(NVME_WRITE):
        errs.append(f"{core}: NVMe temp1_max was {NVME_WRITE} before the write, "
                    "so the write test proves nothing")

    out = sec.get("== sensors", [])
    if "sensors exit status 0" not in out:
        errs.append(f"{core}: sensors failed: {out[-1:]}")
    for chip in CHIPS:
        if not any(re.match(rf"{re.escape(chip)}-[a-z]+-[0-9a-f]+$", l) for l in out):
            errs.append(f"{core}: sensors output lacks the {chip} chip")
    return errs


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        ours = read_dump(argv[1])
        stock = read_dump(argv[2])
        rules = read_rules(argv[3])
    except InputError as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2

    ours_c = canonical(ours)
    stock_c = canonical(stock)
    stock_n = canonical([apply_rules(rules, l)[0] for l in stock])
    images = {}  # line of ours -> the rule that produced it from stock
    for l in stock:
        new, r = apply_rules(rules, l)
        if r:
            images[new] = r

    print(f"== diff of the e2e dumps: --- stock +++ ours "
          f"({argv[2]} {argv[1]})")
    diff = list(difflib.unified_diff(stock_c, ours_c, "stock", "ours",
                                     n=0, lineterm=""))
    ours_set = set(ours_c)
    for d in diff:
        if d.startswith(("---", "+++", "@@")):
            print(d)
            continue
        line = d[1:]
        if d[0] == "-":
            new, r = apply_rules(rules, line)
            ok = r is not None and new in ours_set
        else:
            r = images.get(line)
            ok = r is not None
        tag = f"intended [{r.name}]" if ok else "UNEXPECTED"
        print(f"{d}    <- {tag}")
    if not diff:
        print("(no difference)")

    failed = []
    unexpected = [d for d in difflib.unified_diff(stock_n, ours_c, n=0, lineterm="")
                  if d[:1] in "+-" and not d.startswith(("---", "+++"))]
    if unexpected:
        failed.append(f"{len(unexpected)} unexpected difference line(s) "
                      "(after applying the intended-difference rules):")
        failed.extend("  " + u for u in unexpected)
    for r in rules:
        if not any(r.stock.fullmatch(l) for l in stock):
            failed.append(f"[{r.name}] ({r.where}) matched no line of the stock "
                          "dump: the intended difference it documents is not "
                          "exercised")
    failed += check_dump("ours", ours) + check_dump("stock", stock)

    print()
    print("== intended differences")
    for r in rules:
        n = sum(1 for l in stock if r.stock.fullmatch(l))
        print(f"[{r.name}] {n} line(s): {r.why}")
    if failed:
        print()
        print("e2e: FAILED")
        for f in failed:
            print("  " + f)
        return 1
    print()
    print("e2e: OK: the dumps differ only by the intended differences; "
          "NVMe composite temperature present, temp1_max took "
          f"{NVME_WRITE}; sensors shows {', '.join(CHIPS)} on both cores")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
