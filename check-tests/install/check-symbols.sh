#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The exported symbols of libblockrange.so are exactly its documented API:
#   1. the functions the public headers declare (the compiler lists them
#      with -aux-info; static inline ones are not exported) equal the
#      version script's global list, both ways;
#   2. the functions the built library exports (nm -D --defined-only) equal
#      that list, both ways, and every one has the script's version node;
#   3. every exported function is named in libblockrange(3);
#   4. every name in the version script and every symbol the library
#      exports carries the library's prefix, blockrange_ (so that a program
#      may link another library with kernel-style rb_*() or other short
#      names), and the version node is LIBBLOCKRANGE_<SONAME major>;
#   5. the static archive's global symbols (nm -g --defined-only) equal the
#      version script's list, both ways: a program linking it statically
#      may define any other name;
#   6. every name the headers define (macros, functions, tags, typedefs,
#      enumerators) carries the prefix (header-names.py).
#
# usage: check-symbols.sh LIB.so LIB.a MAP MAN3 HEADER...
# (the SONAME is read from LIB.so)
set -euo pipefail
export CCACHE_DISABLE=1	# compiler output read here, never a cached one

so=$1 ar=$2 map=$3 man=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

incdir=$(cd "$(dirname "$1")/.." && pwd)
for h in "$@"; do
	echo "#include <blockrange/$(basename "$h")>"
done > "$tmp/all.c"
gcc -std=c11 -I"$incdir" -aux-info "$tmp/aux" -c "$tmp/all.c" -o "$tmp/all.o"
# Lines: /* FILE:LINE:NC */ extern TYPE NAME (ARGS);  -- only the headers'.
grep -F "$incdir/blockrange/" "$tmp/aux" | grep -v '\bstatic\b' |
	sed -E 's/^[^*]*\*\/ *//; s/ *\(.*$//; s/.*[ *]//' | sort -u > "$tmp/headers"

sed -n '/global:/,/local:/p' "$map" | grep -E '^[[:space:]]+[A-Za-z_][A-Za-z0-9_]*;' |
	sed -E 's/[[:space:];]//g' | sort -u > "$tmp/map"
node=$(sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*) \{.*/\1/p' "$map")

nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' > "$tmp/nm-raw"
sed 's/@.*//' "$tmp/nm-raw" | sort -u > "$tmp/exported"
nm -g --defined-only "$ar" | awk 'NF == 3 { print $3 }' | sort > "$tmp/archive"

compare() {	# name-a file-a name-b file-b
	local only
	only=$(comm -23 "$2" "$4")
	if [ -n "$only" ]; then
		echo "check-symbols: in $1 but not in $3:" $only >&2
		fail=1
	fi
}
compare "the headers" "$tmp/headers" "the version script" "$tmp/map"
compare "the version script" "$tmp/map" "the headers" "$tmp/headers"
compare "the library's exports" "$tmp/exported" "the version script" "$tmp/map"
compare "the version script" "$tmp/map" "the library's exports" "$tmp/exported"
compare "the static archive's globals" "$tmp/archive" "the version script" "$tmp/map"
compare "the version script" "$tmp/map" "the static archive's globals" "$tmp/archive"
dups=$(uniq -d "$tmp/archive")
if [ -n "$dups" ]; then
	echo "check-symbols: defined twice in the static archive:" $dups >&2
	fail=1
fi

bad=$(grep -v "@@$node\$" "$tmp/nm-raw" || true)
if [ -n "$bad" ]; then
	echo "check-symbols: exported without version node $node:" $bad >&2
	fail=1
fi

# The prefix, on both lists (the first would catch a script gone stale).
bad=$(cat "$tmp/map" "$tmp/exported" | grep -v '^blockrange_' | sort -u || true)
if [ -n "$bad" ]; then
	echo "check-symbols: exported without the prefix blockrange_:" $bad >&2
	fail=1
fi
major=$(readelf -d "$so" | sed -n 's/.*Library soname: \[libblockrange\.so\.\([0-9]*\)\]/\1/p')
if [ "$node" != "LIBBLOCKRANGE_$major" ]; then
	echo "check-symbols: version node $node, SONAME major '$major'" >&2
	fail=1
fi

# The man page names each function in bold, as \fBname\fR or .BR name ().
groff -man -Tascii -P-cbou "$man" 2>/dev/null > "$tmp/man.txt"
while read -r f; do
	grep -qw -- "$f" "$tmp/man.txt" || {
		echo "check-symbols: $f is not documented in $(basename "$man")" >&2
		fail=1
	}
done < "$tmp/exported"

python3 "$(dirname "$0")/header-names.py" "$incdir" "$@" || fail=1

n=$(wc -l < "$tmp/exported")
if [ "$fail" -ne 0 ] || [ "$n" -eq 0 ]; then
	echo "check-symbols: FAILED" >&2
	exit 1
fi
echo "check-symbols: $n exported functions = the $n functions of the headers = the version script ($node) = the static archive's globals, all blockrange_*, all in $(basename "$man")"
