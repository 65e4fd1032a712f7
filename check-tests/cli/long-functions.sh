#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The functions of a source tree (userspace/, kernel/) longer than a limit:
# a function is split into named steps before its body passes MAX lines
# (default 100).
# Bodies are found by the kernel style the sources follow: a definition's
# "{" and "}" stand alone in column 0.
#
# usage: long-functions.sh SOURCE_DIR [MAX]
# Prints "LINES FILE:LINE NAME" per function over MAX, longest first, and
# exits 1 if there is any; else a one-line summary and 0.

set -eu

src=${1:?usage: long-functions.sh SOURCE_DIR [MAX]}
max=${2:-100}
cd "$src"

# shellcheck disable=SC2046
lengths=$(awk '
/^[A-Za-z_].*\(/ { sig = $0; sigline = FNR }
/^\{/ {
	start = FNR
	name = sig
	sub(/\(.*/, "", name)
	n = split(name, parts, /[ *]+/)
	name = parts[n]
}
/^\}/ && start {
	printf "%d %s:%d %s\n", FNR - start - 1, FILENAME, sigline, name
	start = 0
}' $(find . -name '*.c' | sort) | sort -rn)

long=$(printf '%s\n' "$lengths" | awk -v max="$max" '$1 > max')
if [ -n "$long" ]; then
	printf '%s\n' "$long"
	echo "long-functions: split the functions above into named steps (at most $max lines)"
	exit 1
fi
printf '%s\n' "$lengths" | awk -v max="$max" 'NR == 1 { l = $1 } END {
	printf "long-functions: %d functions, the longest %d lines (at most %d): ok\n", NR, l, max }'
