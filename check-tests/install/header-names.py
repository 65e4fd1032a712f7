#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every name the public headers define carries the library's prefix.

usage: header-names.py INCDIR HEADER...

A program that includes <blockrange/blockrange.h> gets, besides what the
C library's headers give it, only names that start with blockrange_ or
BLOCKRANGE_ (and struct blockrange itself): macros (gcc -E -dM, less those of the system headers the
headers include), and the file-scope names of declarations (functions,
variables, typedefs, struct, union and enum tags, enumerators), read from
clang's AST of a file that includes every header.  Member names of
structures are not at file scope and are not checked.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

PREFIX = re.compile(r"(blockrange_|BLOCKRANGE_|blockrange$)")

# The compilers run without ccache: a cached -ast-dump of the same headers
# in another checkout would name that checkout's files.
ENV = dict(os.environ, CCACHE_DISABLE="1")


def macros(src, incdir):
    out = subprocess.run(["gcc", "-std=c11", "-E", "-dM", "-I", incdir, src],
                         check=True, capture_output=True, text=True,
                         env=ENV).stdout
    return {line.split()[1].split("(")[0] for line in out.splitlines()
            if line.startswith("#define ")}


def decl_names(src, incdir, ours):
    """(kind, name, file) of each named file-scope declaration of @ours."""
    dump = subprocess.run(
        ["clang", "-std=c11", "-fsyntax-only", "-Xclang", "-ast-dump=json",
         "-I", incdir, src], check=True, capture_output=True, text=True,
        env=ENV).stdout
    tu = json.loads(dump)
    found = []
    # clang writes a location's file only when it differs from the previous
    # location written: follow the dump in its order.
    state = {"file": None}

    def locate(node):
        if isinstance(node, dict):
            if "offset" in node and "file" in node:
                state["file"] = node["file"]
            for v in node.values():
                if isinstance(v, (dict, list)):
                    locate(v)
        elif isinstance(node, list):
            for v in node:
                locate(v)

    def visit(decl, scope_kinds):
        for key, val in decl.items():
            if key == "inner":
                continue
            if isinstance(val, (dict, list)):
                locate(val)
        here = state["file"]
        kind = decl.get("kind", "")
        name = decl.get("name")
        mine = here is not None and os.path.realpath(here) in ours
        if mine and name and not decl.get("isImplicit") and kind in scope_kinds:
            found.append((kind, name, here))
        for child in decl.get("inner", []):
            if kind in ("RecordDecl", "EnumDecl", "TranslationUnitDecl"):
                # Nested tags and enumerators are at file scope in C.
                visit(child, ("RecordDecl", "EnumDecl", "EnumConstantDecl"))
            else:
                visit(child, ())

    for decl in tu.get("inner", []):
        visit(decl, ("FunctionDecl", "VarDecl", "TypedefDecl", "RecordDecl",
                     "EnumDecl"))
    return found


def main():
    incdir, headers = sys.argv[1], sys.argv[2:]
    ours = {os.path.realpath(h) for h in headers}
    system = set()
    for h in headers:
        with open(h) as f:
            for line in f:
                m = re.match(r"\s*#\s*include\s*<([^>]+)>", line)
                if m and not m.group(1).startswith("blockrange/"):
                    system.add(m.group(1))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "all.c")
        base = os.path.join(tmp, "base.c")
        with open(src, "w") as f:
            for h in headers:
                f.write("#include <blockrange/%s>\n" % os.path.basename(h))
        with open(base, "w") as f:
            for s in sorted(system):
                f.write("#include <%s>\n" % s)
        new_macros = macros(src, incdir) - macros(base, incdir)
        decls = decl_names(src, incdir, ours)
    bad = sorted(m for m in new_macros if not PREFIX.match(m))
    bad += sorted("%s %s" % (k, n) for k, n, _ in decls if not PREFIX.match(n))
    kinds = {}
    for k, _, _ in decls:
        kinds[k] = kinds.get(k, 0) + 1
    if not decls or not new_macros:
        print("header-names: found no declarations or no macros in the "
              "headers (the check would pass on anything)", file=sys.stderr)
        return 1
    if bad:
        print("header-names: the headers define names without the prefix "
              "blockrange_/BLOCKRANGE_: " + ", ".join(bad), file=sys.stderr)
        return 1
    print("header-names: %d macros and %d file-scope names (%s) of %d "
          "headers, all prefixed" % (
              len(new_macros), len(decls),
              ", ".join("%d %s" % (n, k) for k, n in sorted(kinds.items())),
              len(headers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
