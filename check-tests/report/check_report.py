#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check `blockrange report` pages against `blockrange annotate --format=json`.

For each page (NAME, HTML path, input and its options):
  1. static: writes the page and annotate's JSON of the same input, then
     checks every number of the page's embedded data and of its HTML
     (overview tables, disassembly rows) against the JSON, and the
     control-flow graph against the rules of cfg.h recomputed here from the
     JSON (leaders from the instruction text and the taken branches, block
     coverage, fall-through counts, taken counts by node pair);
  2. browser: loads the page from disk in headless Chromium (Selenium,
     chromedriver): no console message of level SEVERE, the SVG's nodes and
     edges are the data's, the visible node and edge labels, disassembly
     rows and overview cells equal the checked numbers, sorting a column
     sorts, clicking a node scrolls the disassembly to its block; a
     screenshot of the first page is kept.
The browser part is skipped, with the reason, only when Chromium, its
driver or Selenium is not installed; a browser that is installed but does
not start fails the check.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

errors = []


def fail(msg):
    errors.append(msg)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


def pct(a, b):
    return None if not b else "%.2f" % (100.0 * a / b)


# ---- instruction classes from annotate's text (AT&T, capstone) ----

PREFIXES = ("bnd ", "notrack ", "rep ", "repz ", "repnz ", "lock ")


def mnemonic(asm):
    a = asm
    changed = True
    while changed:
        changed = False
        for p in PREFIXES:
            if a.startswith(p):
                a = a[len(p):]
                changed = True
    m = a.split(" ", 1)
    return m[0], (m[1].strip() if len(m) > 1 else "")


def kind_of(asm):
    m, _ = mnemonic(asm)
    if m in ("jmp", "jmpq", "ljmp", "ljmpq"):
        return "jmp"
    if m in ("call", "callq", "lcall", "lcallq"):
        return "call"
    if m.startswith("ret") or m.startswith("iret") or m.startswith("lret"):
        return "ret"
    if m.startswith("j") or m.startswith("loop") or m in ("jrcxz", "jecxz"):
        return "cond"
    return "other"


def direct_target(asm):
    _, ops = mnemonic(asm)
    mt = re.match(r"^([0-9a-f]+)( <.*>)?$", ops)
    return int(mt.group(1), 16) if mt else None


def comment(ins):
    """annotate's comment for one instruction (annot_comment())."""
    parts = []
    if ins["entry_pct"] is not None and ins["entry_pct"] > 0.1:
        parts.append("+%.2f%%" % ins["entry_pct"])
    if ins["taken_pct"] is not None and ins["taken_pct"] > 0.1:
        p = ("(p:%.2f%%)" % ins["pred_pct"]) if ins["pred_pct"] is not None \
            else "(p:n/a)"
        parts.append("-%.2f%% %s" % (ins["taken_pct"], p))
    return " ".join(parts)


def heat(cov_pct):
    if cov_pct is None:
        return "warm"
    if cov_pct / 100.0 > 0.75:
        return "hot"
    if cov_pct / 100.0 < 0.01:
        return "cold"
    return "warm"


def fmt2(v):
    return "?" if v is None else "%.2f" % v


# ---- the expected graph of one symbol, from annotate's JSON ----

def expected_graph(sym, si):
    ins = sym["instructions"]
    addrs = [int(i["addr"], 16) for i in ins]
    index = {a: k for k, a in enumerate(addrs)}
    start, end = int(sym["start"], 16), int(sym["end"], 16)
    branches = [(int(b["from"], 16), int(b["to"], 16), b["count"],
                 b["mispredicted"]) for b in sym["branches"]]
    leader = [False] * len(ins)
    if ins:
        leader[0] = True
    for k, i in enumerate(ins):
        kd = kind_of(i["asm"])
        t = direct_target(i["asm"]) if kd in ("jmp", "cond", "call") else None
        if t is not None and t in index:
            leader[index[t]] = True
        if kd != "other" and k + 1 < len(ins):
            leader[k + 1] = True
    for f, t, _, _ in branches:
        if start <= t < end and t in index:
            leader[index[t]] = True
    blocks = []
    for k, i in enumerate(ins):
        if leader[k]:
            blocks.append([])
        blocks[-1].append(k)
    ranges = [(int(r["start"], 16), int(r["end"], 16), r) for r in sym["ranges"]]

    def range_at(a):
        for s, e, r in ranges:
            if s <= a <= e:
                return r, e
        return None, None

    exp_blocks = []
    for b in blocks:
        first, last = ins[b[0]], ins[b[-1]]
        cov = max(ins[k]["coverage"] for k in b)
        top = next(ins[k] for k in b if ins[k]["coverage"] == cov)
        exp_blocks.append({
            "id": "s%d_n%x" % (si, addrs[b[0]]),
            "start": first["addr"], "last": last["addr"],
            "end": "0x%x" % (addrs[b[-1]] + last["size"]),
            "insns": len(b), "coverage": cov,
            "coverage_pct": top["coverage_pct"],
            "samples": sum(ins[k]["samples"] for k in b),
            "first": b[0], "lastk": b[-1]})
    block_of = {}
    for n, b in enumerate(blocks):
        for k in b:
            block_of[addrs[k]] = n

    def node(a):
        # Any address of the symbol belongs to the block holding it.
        best = None
        for n, b in enumerate(blocks):
            if addrs[b[0]] <= a:
                best = n
        return best

    # Taken records grouped by node pair; externals as one side "ext".
    taken = {}
    for f, t, c, m in branches:
        fi = start <= f < end
        ti = start <= t < end
        key = (exp_blocks[node(f)]["id"] if fi else "ext",
               exp_blocks[node(t)]["id"] if ti else "ext")
        a = taken.setdefault(key, [0, 0])
        a[0] += c
        a[1] += m
    falls = {}
    after_calls = set()
    statics = set()
    for n, b in enumerate(blocks):
        last = ins[b[-1]]
        kd = kind_of(last["asm"])
        t = direct_target(last["asm"]) if kd in ("jmp", "cond", "call") else None
        if t is not None and t in index and leader[index[t]]:
            statics.add((exp_blocks[n]["id"], exp_blocks[node(t)]["id"]))
        if n + 1 >= len(blocks) or kd in ("jmp", "ret"):
            continue
        nxt = exp_blocks[n + 1]["id"]
        if kd == "call":
            after_calls.add((exp_blocks[n]["id"], nxt))
            continue
        r, e = range_at(addrs[b[-1]])
        cnt = 0
        if r is not None:
            cnt = r["coverage"] - (r["taken"] if e == addrs[b[-1]] else 0)
        falls[(exp_blocks[n]["id"], nxt)] = cnt
    return exp_blocks, taken, falls, after_calls, statics


def check_symbol(name, ps, js, si, data):
    """Page symbol ps (embedded data) against annotate's symbol js."""
    where = "%s: %s" % (name, ps["name"])
    for k in ("start", "end", "samples", "max_coverage"):
        check(ps[k] == js[k], "%s: %s %r != annotate's %r" % (where, k, ps[k], js[k]))
    check(ps["ranges"] == len(js["ranges"]), "%s: ranges" % where)
    start, end = int(js["start"], 16), int(js["end"], 16)
    out = [b for b in js["branches"] if start <= int(b["from"], 16) < end]
    check(ps["taken_branches"] == sum(b["count"] for b in out),
          "%s: taken_branches" % where)
    check(ps["mispredicted"] == sum(b["mispredicted"] for b in out),
          "%s: mispredicted" % where)
    exp_blocks, taken, falls, after_calls, statics = expected_graph(js, si)
    got = ps["blocks"]
    check(len(got) == len(exp_blocks), "%s: %d blocks, expected %d" %
          (where, len(got), len(exp_blocks)))
    for g, e in zip(got, exp_blocks):
        for k in ("id", "start", "last", "end", "insns", "coverage",
                  "coverage_pct", "samples"):
            check(g[k] == e[k], "%s: block %s: %s %r, expected %r" %
                  (where, e["id"], k, g[k], e[k]))
        check(g["heat"] == heat(g["coverage_pct"]), "%s: heat of %s" % (where, g["id"]))
    ext_ids = {x["id"] for x in ps["externals"]}
    got_taken = {}
    got_falls = {}
    got_after = set()
    for e in ps["edges"]:
        f = "ext" if e["from"] in ext_ids else e["from"]
        t = "ext" if e["to"] in ext_ids else e["to"]
        if e["kind"] == "fallthrough":
            check((f, t) not in got_falls, "%s: two fall-throughs %s" % (where, e["id"]))
            got_falls[(f, t)] = e["count"]
        elif e["kind"] == "after_call":
            got_after.add((f, t))
            check(e["count"] is None, "%s: after_call with a count" % where)
        else:
            a = got_taken.setdefault((f, t), [0, 0])
            a[0] += e["count"]
            a[1] += e["mispredicted"]
            if e["count"] == 0:
                check((f, t) in statics, "%s: edge %s of count 0 is no direct branch" %
                      (where, e["id"]))
    check(got_falls == falls, "%s: fall-throughs %r, expected %r" % (where, got_falls, falls))
    check(got_after == after_calls, "%s: after_call edges" % where)
    nonzero = {k: v for k, v in got_taken.items() if v[0]}
    check(nonzero == taken, "%s: taken edges %r, expected %r" % (where, nonzero, taken))
    for k in statics:
        check(k in got_taken, "%s: direct branch %r not drawn" % (where, k))


def page_data(html):
    m = re.search(r'<script type="application/json" id="blockrange-data">\n(.*?)</script>',
                  html, re.S)
    if not m:
        raise SystemExit("check-report: no embedded data")
    return json.loads(m.group(1))


def strip_tags(s):
    s = re.sub(r"<[^>]*>", "", s)
    return (s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&#39;", "'").replace("&amp;", "&"))


def static_checks(name, html_path, bin_, args, out_dir):
    subprocess.run([bin_, "report"] + args + ["-o", html_path], check=True,
                   stderr=subprocess.DEVNULL)
    js = json.loads(subprocess.run([bin_, "annotate"] + args + ["--format=json"],
                                   check=True, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL).stdout)
    html = open(html_path, encoding="utf-8").read()
    data = page_data(html)
    check(data["samples"] == js["samples"], "%s: samples" % name)
    check(data["blocks_seen"] == js["blocks"]["seen"], "%s: blocks seen" % name)
    check(data["blocks_counted"] == js["blocks"]["counted"], "%s: blocks counted" % name)
    check(data["prediction_flags"] == js["prediction_flags"], "%s: prediction flags" % name)
    jsyms = [(d, s) for d in js["dsos"] for s in d["symbols"]]
    check(data["symbols_with_data"] == len(jsyms), "%s: symbols with data" % name)
    byname = {(d["name"], s["name"], s["start"]): (d, s) for d, s in jsyms}
    expect_rows = {}
    for si, ps in enumerate(data["symbols"]):
        d, s = byname[(ps["dso"], ps["name"], ps["start"])]
        check_symbol(name, ps, s, si, data)
        miss = pct(ps["mispredicted"], ps["taken_branches"]) \
            if js["prediction_flags"] else None
        expect_rows[ps["id"]] = [
            str(si + 1), s["name"], d["name"], str(s["samples"]),
            pct(s["samples"], js["samples"]) or "n/a", str(s["max_coverage"]),
            str(len(s["ranges"])), str(len(ps["blocks"])),
            str(sum(1 for b in ps["blocks"] if b["coverage"])),
            str(ps["taken_branches"]), miss or "n/a"]
        # disassembly rows in the HTML, against annotate's instructions
        rows = re.findall(r'<tr id="%s_i([0-9a-f]+)" class="(\w+)" data-b="[0-9a-f]+">'
                          r'<td class="pct">(.*?)</td><td class="cov">(.*?)</td>'
                          r'<td class="addr">(.*?)</td><td class="asm">(.*?)</td>'
                          r'<td class="cm">(.*?)</td></tr>' % ps["id"], html)
        check(len(rows) == len(s["instructions"]), "%s: %s: %d rows, %d instructions" %
              (name, s["name"], len(rows), len(s["instructions"])))
        for r, i in zip(rows, s["instructions"]):
            a = int(i["addr"], 16)
            want = ("%x" % a, heat(i["coverage_pct"]), "%.2f" % i["percent"],
                    str(i["coverage"]), "%x:" % a, " ".join(i["asm"].split()),
                    comment(i))
            got = (r[0], r[1], r[2], r[3], r[4], " ".join(strip_tags(r[5]).split()),
                   strip_tags(r[6]))
            check(got == want, "%s: row %s: %r, expected %r" % (name, i["addr"], got, want))
    # overview rows in the HTML
    for sid, want in expect_rows.items():
        m = re.search(r'<tr id="row-%s">(.*?)</tr>' % sid, html)
        if check(m, "%s: no overview row %s" % (name, sid)):
            cells = [strip_tags(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", m.group(1))]
            check(cells == want, "%s: overview row %s: %r, expected %r" %
                  (name, sid, cells, want))
    return data, js, expect_rows


# ---- browser ----

def browser_available():
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium is not installed"
    if not shutil.which("chromium"):
        return "chromium is not installed"
    if not shutil.which("chromedriver"):
        return "chromium-driver is not installed"
    return None


JS_COLLECT = r"""
var out = {};
document.querySelectorAll('section.sym').forEach(function (sec) {
  var s = {nodes: {}, edges: {}, rows: {}};
  sec.querySelectorAll('.graph g.node').forEach(function (n) {
    s.nodes[n.id] = Array.prototype.map.call(n.querySelectorAll('text'),
      function (t) { return t.textContent; });
  });
  sec.querySelectorAll('.graph g.edge').forEach(function (e) {
    s.edges[e.id] = Array.prototype.map.call(e.querySelectorAll('text'),
      function (t) { return t.textContent; });
  });
  sec.querySelectorAll('.disasm tbody tr:not(.bh)').forEach(function (r) {
    s.rows[r.id] = Array.prototype.map.call(r.cells, function (c) { return c.innerText; });
  });
  out[sec.id] = s;
});
out.overview = {};
document.querySelectorAll('#sym-table tbody tr').forEach(function (r) {
  out.overview[r.id.replace('row-', '')] = Array.prototype.map.call(r.cells,
    function (c) { return c.innerText.trim(); });
});
return out;
"""


def wait_for(fn, timeout=15.0):
    end = time.time() + timeout
    while True:
        v = fn()
        if v or time.time() > end:
            return v
        time.sleep(0.1)


def browser_checks(pages, out_dir):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    prof = tempfile.mkdtemp(prefix="blockrange-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--user-data-dir=" + prof):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver"))
    summary = []
    drv = webdriver.Chrome(service=service, options=opts)
    try:
        drv.set_page_load_timeout(30)
        drv.set_script_timeout(30)
        version = drv.capabilities.get("browserVersion", "?")
        for n, (name, html_path, data, js, rows) in enumerate(pages):
            drv.get("file://" + os.path.abspath(html_path))
            wait_for(lambda: drv.execute_script("return document.readyState") == "complete")
            got = drv.execute_script(JS_COLLECT)
            nodes = edges = 0
            for si, ps in enumerate(data["symbols"]):
                sec = got.get(ps["id"])
                if not check(sec is not None, "%s: no section %s" % (name, ps["id"])):
                    continue
                want_nodes = {b["id"]: b for b in ps["blocks"] if b["drawn"]}
                want_ext = {x["id"]: x for x in ps["externals"] if x["drawn"]}
                check(set(sec["nodes"]) == set(want_nodes) | set(want_ext),
                      "%s: %s: SVG nodes %r" % (name, ps["name"], sorted(sec["nodes"])))
                want_edges = {e["id"]: e for e in ps["edges"] if e["drawn"]}
                check(set(sec["edges"]) == set(want_edges),
                      "%s: %s: SVG edges" % (name, ps["name"]))
                nodes += len(sec["nodes"])
                edges += len(sec["edges"])
                for bid, b in want_nodes.items():
                    lab = ["%x-%x" % (int(b["start"], 16), int(b["last"], 16)),
                           "cov %d (%s%%)" % (b["coverage"], fmt2(b["coverage_pct"]))]
                    if b["samples"]:
                        lab.append("%d sample%s" % (b["samples"], "" if b["samples"] == 1 else "s"))
                    check(sec["nodes"].get(bid) == lab, "%s: node %s shows %r, expected %r" %
                          (name, bid, sec["nodes"].get(bid), lab))
                for xid, x in want_ext.items():
                    check(sec["nodes"].get(xid) == [x["name"]], "%s: node %s" % (name, xid))
                for eid, e in want_edges.items():
                    if e["kind"] == "after_call":
                        lab = []
                    elif data["prediction_flags"] and e["kind"] != "fallthrough" and e["count"]:
                        lab = [str(e["count"]), "%s%% miss" % pct(e["mispredicted"], e["count"])]
                    else:
                        lab = [str(e["count"])]
                    check(sec["edges"].get(eid) == lab, "%s: edge %s shows %r, expected %r" %
                          (name, eid, sec["edges"].get(eid), lab))
                jsym = next(s for d in js["dsos"] for s in d["symbols"]
                            if s["name"] == ps["name"] and s["start"] == ps["start"])
                for i in jsym["instructions"]:
                    a = int(i["addr"], 16)
                    want = ["%.2f" % i["percent"], str(i["coverage"]), "%x:" % a,
                            " ".join(i["asm"].split()), comment(i)]
                    r = sec["rows"].get("%s_i%x" % (ps["id"], a))
                    if check(r is not None, "%s: no row %x" % (name, a)):
                        r = [r[0], r[1], r[2], " ".join(r[3].split()), r[4].strip()]
                        check(r == want, "%s: visible row %x: %r, expected %r" % (name, a, r, want))
            check(got["overview"] == rows, "%s: visible overview %r, expected %r" %
                  (name, got["overview"], rows))

            # Sorting: "samples" ascending, then descending.
            th = drv.find_element(By.CSS_SELECTOR, "#sym-table thead th:nth-child(4)")
            col = lambda: drv.execute_script(
                "return Array.prototype.map.call(document.querySelectorAll("
                "'#sym-table tbody tr td:nth-child(4)'), function (c) "
                "{ return parseFloat(c.getAttribute('data-v')); });")
            th.click()
            v = col()
            check(v == sorted(v), "%s: samples column not sorted ascending: %r" % (name, v))
            th.click()
            v = col()
            check(v == sorted(v, reverse=True), "%s: not sorted descending: %r" % (name, v))

            # Click: the drawn block whose rows are furthest down its pane.
            target = drv.execute_script(r"""
var best = null;
document.querySelectorAll('.graph g.node.block').forEach(function (n) {
  var row = document.getElementById(n.id.replace('_n', '_i'));
  if (row && (!best || row.offsetTop > best.top))
    best = {id: n.id, row: row.id, top: row.offsetTop};
});
return best;""")
            clicked = "none"
            if check(target, "%s: no block to click" % name):
                node = drv.find_element(By.ID, target["id"])
                drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", node)
                before = drv.execute_script(
                    "return document.getElementById(arguments[0]).closest('.disasm').scrollTop;",
                    target["row"])
                node.click()
                state = r"""
var row = document.getElementById(arguments[0]);
var pane = row.closest('.disasm');
var r = row.getBoundingClientRect(), p = pane.getBoundingClientRect();
return {top: pane.scrollTop, inside: r.top >= p.top && r.bottom <= p.bottom,
        sel: row.classList.contains('sel'),
        node: document.getElementById(arguments[1]).classList.contains('sel'),
        overflow: pane.scrollHeight > pane.clientHeight};"""
                st = wait_for(lambda: (lambda s: s if s["sel"] and s["inside"] else None)(
                    drv.execute_script(state, target["row"], target["id"])), 10) or \
                    drv.execute_script(state, target["row"], target["id"])
                check(st["sel"] and st["node"], "%s: click did not select %s" % (name, target["id"]))
                check(st["inside"], "%s: row %s not visible after the click" % (name, target["row"]))
                if st["overflow"]:
                    check(st["top"] > before, "%s: the disassembly did not scroll (%r -> %r)" %
                          (name, before, st["top"]))
                clicked = "%s (pane scrolled %d -> %d px)" % (target["id"], before, st["top"])
            if n == 0:
                drv.save_screenshot(os.path.join(out_dir, "report-click.png"))
                drv.execute_script("window.scrollTo(0, 0);")
                drv.save_screenshot(os.path.join(out_dir, "report.png"))
            logs = drv.get_log("browser")
            severe = [l for l in logs if l.get("level") == "SEVERE"]
            check(not severe, "%s: console errors: %r" % (name, severe))
            summary.append("%s: %d nodes, %d edges, click on %s, %d console errors" %
                           (name, nodes, edges, clicked, len(severe)))
    finally:
        drv.quit()
        shutil.rmtree(prof, ignore_errors=True)
    return version, summary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--blockrange", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--page", nargs=3, action="append", required=True,
                    metavar=("NAME", "HTML", "INPUT_AND_OPTIONS"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    pages = []
    static = []
    for name, html_path, inp in a.page:
        words = shlex.split(inp)
        args = ["-i", words[0]] + words[1:]
        data, js, rows = static_checks(name, html_path, a.blockrange, args, a.out)
        nb = sum(len(s["blocks"]) for s in data["symbols"])
        ne = sum(len(s["edges"]) for s in data["symbols"])
        nr = sum(len(s["instructions"]) for d in js["dsos"] for s in d["symbols"]
                 if any(p["name"] == s["name"] and p["start"] == s["start"]
                        for p in data["symbols"]))
        static.append("%s (%d bytes): %d symbols, %d blocks, %d edges, %d rows" %
                      (name, os.path.getsize(html_path), len(data["symbols"]), nb, ne, nr))
        pages.append((name, html_path, data, js, rows))
    if errors:
        print("\n".join("check-report: " + e for e in errors[:40]), file=sys.stderr)
        print("check-report: FAILED (static: %d errors)" % len(errors), file=sys.stderr)
        return 1
    print("check-report: static: the numbers equal annotate's JSON: " + "; ".join(static))
    why = browser_available()
    if why:
        print("check-report: SKIP browser part: %s (the static checks passed)" % why)
        return 0
    version, summary = browser_checks(pages, a.out)
    if errors:
        print("\n".join("check-report: " + e for e in errors[:40]), file=sys.stderr)
        print("check-report: FAILED (browser: %d errors)" % len(errors), file=sys.stderr)
        return 1
    print("check-report: Chromium %s: %s; screenshot %s" %
          (version, "; ".join(summary), os.path.join(a.out, "report.png")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
