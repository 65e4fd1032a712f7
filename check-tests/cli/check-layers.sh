#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The layers of the blockrange CLI (userspace/cli/README.md), checked on
# its sources:
#
#   base < input < resolve < collect < output < record < builtin
#
# 1. Every file lives in one of these folders, and every #include "..." of
#    the CLI is folder-qualified ("input/events.h"): the layer it reaches
#    into shows in the line.
# 2. A file includes headers of its own folder and of the folders below it
#    only, never of a folder above it (the library's <blockrange/...> and
#    "common/*.h", shared with the library in userspace/common/, are below
#    them all; so are "format/*.h", the file formats of userspace/format/).
# 3. Only builtin/ chooses exit statuses (CLI_EXIT_*); the other layers
#    return the BR_* values of base/status.h.
# 4. resolve/ never prints: no stdout, no stderr (messages go back in the
#    caller's error buffer).
#
# usage: check-layers.sh CLI_SOURCE_DIR
# Prints one line per violation ("FILE:LINE: ...") and exits 1 if there is
# any, else prints a one-line summary and exits 0.

set -eu

src=${1:?usage: check-layers.sh CLI_SOURCE_DIR}
cd "$src"

# shellcheck disable=SC2016
awk -v order="base input resolve collect output record builtin" '
BEGIN {
	n = split(order, layers, " ")
	for (i = 1; i <= n; i++)
		rank[layers[i]] = i
	bad = 0
}
FNR == 1 {
	path = FILENAME
	sub(/^\.\//, "", path)
	nparts = split(path, parts, "/")
	dir = nparts == 2 ? parts[1] : ""
	files++
	if (!(dir in rank)) {
		printf "%s: expected a file in one of the folders %s, got one outside them\n", path, order
		bad++
	}
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0
	sub(/^[^"]*"/, "", inc)
	sub(/".*$/, "", inc)
	if (inc ~ /^(common|format)\/[a-z_0-9]+\.h$/)
		next	# userspace/common/, userspace/format/: below every layer
	if (split(inc, ip, "/") != 2) {
		printf "%s:%d: expected a folder-qualified include (\"LAYER/NAME.h\"), got \"%s\"\n", path, FNR, inc
		bad++
		next
	}
	if (!(ip[1] in rank)) {
		printf "%s:%d: expected an include of a layer (%s), got \"%s\"\n", path, FNR, order, inc
		bad++
		next
	}
	if ((dir in rank) && rank[ip[1]] > rank[dir]) {
		printf "%s:%d: %s/ is below %s/ and must not include \"%s\"\n", path, FNR, dir, ip[1], inc
		bad++
	}
	includes++
}
/CLI_EXIT_/ && dir != "builtin" {
	printf "%s:%d: only builtin/ chooses exit statuses, got CLI_EXIT_ in %s/\n", path, FNR, dir
	bad++
}
dir == "resolve" && !/^[ \t]*(\/\*|\*|\/\/)/ && (/(^|[^a-z_])(stdout|stderr)([^a-z_]|$)/ || /(^|[^a-z_])(printf|puts|perror|putchar)[ \t]*\(/) {
	printf "%s:%d: resolve/ never prints (messages go back to the caller), got: %s\n", path, FNR, $0
	bad++
}
END {
	if (bad) {
		printf "check-layers: %d violation%s\n", bad, bad == 1 ? "" : "s"
		exit 1
	}
	printf "check-layers: %d files, %d includes, layers %s: ok\n", files, includes, order
}' $(find . -name '*.[ch]' | sort)
