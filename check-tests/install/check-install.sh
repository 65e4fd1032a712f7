#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install into a temporary DESTDIR, then use only what was installed:
#   - exactly the expected files, the SONAME and the symlinks;
#   - the library demo built with `pkg-config --cflags --libs blockrange`
#     only (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR point into DESTDIR),
#     linked to the installed libblockrange.so.N, and its output equal to
#     the statically linked demo's; the example of libblockrange(3)
#     compiled and run the same way; a program with its own kernel-style
#     tree and functions named like the library's internals, built against
#     the shared and the static library;
#   - the installed blockrange runs, its --version equals the .pc version,
#     and it records with the installed QEMU plugin (not the build tree's);
#   - both man pages render without warnings; blockrange(1) names every
#     option of every subcommand's --help;
#   - the bash completion completes subcommands and options;
# then make uninstall leaves no file behind.
#
# Environment (from userspace/install.mk): MAKE TOP PREFIX BR_VERSION (the
# CLI's) BR_LIB_VERSION (the library's: file name, SONAME major, .pc)
# BR_SO_NAME BR_INSTALLED DEMO_SRC DEMO_STATIC OUT
set -euo pipefail

rm -rf "$OUT"
mkdir -p "$OUT"
dest=$OUT/destdir
checks=0
ok() { checks=$((checks + 1)); }
die() { echo "check-install: $*" >&2; exit 1; }

$MAKE --no-print-directory -C "$TOP" install DESTDIR="$dest" PREFIX="$PREFIX" \
	> "$OUT/install.log"

# 1. exactly the expected files (regular files and symlinks)
(cd "$dest" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort) > "$OUT/files"
for f in $BR_INSTALLED; do echo "$f"; done | sort > "$OUT/expected"
diff -u "$OUT/expected" "$OUT/files" || die "installed files differ from the list"
ok
lib=$dest$PREFIX/lib
[ "$(readlink "$lib/libblockrange.so")" = "$BR_SO_NAME" ] || die "libblockrange.so link"
[ "$(readlink "$lib/$BR_SO_NAME")" = "libblockrange.so.$BR_LIB_VERSION" ] || die "$BR_SO_NAME link"
[ "$BR_SO_NAME" = "libblockrange.so.${BR_LIB_VERSION%%.*}" ] || die "$BR_SO_NAME is not the major version"
soname=$(readelf -d "$lib/libblockrange.so.$BR_LIB_VERSION" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "$BR_SO_NAME" ] || die "SONAME is '$soname', expected $BR_SO_NAME"
ok

# 2. the demo against the installed library, with pkg-config only
export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs blockrange)
[ "$(pkg-config --modversion blockrange)" = "$BR_LIB_VERSION" ] || die "pkg-config version"
# shellcheck disable=SC2086
gcc -std=c11 -Wall -Wextra -Werror -o "$OUT/demo" "$DEMO_SRC" $flags
# (grep -q on a pipe: the writer could get SIGPIPE and pipefail fail it)
dyn=$(readelf -d "$OUT/demo")
grep -q "NEEDED.*\[$BR_SO_NAME\]" <<<"$dyn" ||
	die "the demo does not need $BR_SO_NAME"
deps=$(LD_LIBRARY_PATH=$lib ldd "$OUT/demo")
grep -q "$BR_SO_NAME => $lib/" <<<"$deps" ||
	die "the demo does not load the installed library"
LD_LIBRARY_PATH=$lib "$OUT/demo" > "$OUT/demo.out"
"$DEMO_STATIC" > "$OUT/demo-static.out"
[ -s "$OUT/demo.out" ] || die "the demo printed nothing"
cmp -s "$OUT/demo.out" "$OUT/demo-static.out" ||
	die "the demo's output against the shared library differs from the static one's"
ok
# The EXAMPLE section of libblockrange(3), as a reader would copy it.
man3=$dest$PREFIX/share/man/man3/libblockrange.3
sed -n '/^\.SH EXAMPLE/,/^\.fi/p' "$man3" | sed '1,/^\.nf/d; /^\.fi/d' |
	sed 's/\\-/-/g; s/\\e/\\/g' > "$OUT/example.c"
# shellcheck disable=SC2086
gcc -std=c11 -Wall -Wextra -Werror -o "$OUT/example" "$OUT/example.c" $flags
LD_LIBRARY_PATH=$lib "$OUT/example" > "$OUT/example.out"
printf '401010-401020 coverage 1\n401028-401030 coverage 1\n' | cmp -s - "$OUT/example.out" ||
	die "the man page's example printed: $(cat "$OUT/example.out")"
ok
# A program with its own kernel-style tree and functions named like the
# library's internal ones: the installed headers define none of its names,
# and neither library exports them.
own=$(dirname "$0")/own-rbtree.c
printf 'own 1\nown 2\nown 3\n401010-401020 coverage 1\n401028-401030 coverage 1\nown agg_stats: done\n' \
	> "$OUT/own.expected"
# shellcheck disable=SC2086
gcc -std=c11 -Wall -Wextra -Werror -o "$OUT/own-shared" "$own" $flags ||
	die "a program with its own rb_node, rb_entry and rb_*() does not build against the shared library"
# shellcheck disable=SC2086
gcc -std=c11 -Wall -Wextra -Werror -o "$OUT/own-static" "$own" \
	$(pkg-config --cflags blockrange) "$lib/libblockrange.a" ||
	die "a program with its own rb_*(), br_alloc() and agg_stats() does not link the static library"
LD_LIBRARY_PATH=$lib "$OUT/own-shared" | cmp -s - "$OUT/own.expected" ||
	die "the own-tree program against the shared library printed other output"
"$OUT/own-static" | cmp -s - "$OUT/own.expected" ||
	die "the own-tree program against the static library printed other output"
ok

# 3. the installed CLI
bin=$dest$PREFIX/bin/blockrange
[ "$("$bin" --version)" = "blockrange $BR_VERSION" ] || die "blockrange --version"
[ "$("$bin" -V)" = "blockrange $BR_VERSION" ] || die "blockrange -V"
top=$("$bin" --help)
grep -q report <<<"$top" || die "blockrange --help lacks report"
if grep -q README <<<"$top"; then die "--help points to a source file"; fi
ok
env -u BLOCKRANGE_QEMU_PLUGIN "$bin" record --exact -o "$OUT/true.brprof" -- /bin/true \
	2> "$OUT/record.err" || die "the installed record: $(cat "$OUT/record.err")"
grep -q "; qemu, cpu max: " "$OUT/record.err" || die "record: $(cat "$OUT/record.err")"
ok

# 4. man pages: no warnings; a page per subcommand that describes every
# option of its --help (or blockrange(1) does, among the shared options);
# `blockrange help NAME` prints the installed page as `man` renders it.
man1=$dest$PREFIX/share/man/man1/blockrange.1
subs=$("$bin" --help | sed -n 's/^  \([a-z]\+\) .*/\1/p')
[ -n "$subs" ] || die "no subcommands in --help"
for m in "$man1" "$man3"; do
	warn=$(groff -man -Tascii -ww -z "$m" 2>&1)
	[ -z "$warn" ] || die "$m: $warn"
done
render() {	# page: one line per output line, wide enough not to hyphenate
	MANWIDTH=200 groff -man -Tascii -P-cbou -rLL=200n -rHY=0 "$1"
}
render "$man1" > "$OUT/blockrange.1.txt"
# The option tags (.TP lines: 7 spaces, then a dash) of one section or
# subsection.
tags() {	# file title
	awk -v t="$2" '/^([^ ]|   [^ ])/ { on = ($0 == t || $0 == "   " t) } on && /^       -/' "$1"
}
tags "$OUT/blockrange.1.txt" "Lookup options (annotate, report, ranges, profile, bolt, autofdo)" \
	> "$OUT/tags-lookup"
[ -s "$OUT/tags-lookup" ] || die "blockrange(1) has no lookup options"
tags "$OUT/blockrange.1.txt" "GLOBAL OPTIONS" > "$OUT/tags-global"
tags "$OUT/blockrange.1.txt" "Reading options (annotate, report, ranges, profile, bolt, autofdo)" \
	> "$OUT/tags-reading"
[ -s "$OUT/tags-reading" ] || die "blockrange(1) has no reading options"
missing=
nopts=0
for s in $subs; do
	page=$dest$PREFIX/share/man/man1/blockrange-$s.1
	if [ ! -f "$page" ]; then
		missing="$missing $s:page"
		continue
	fi
	warn=$(groff -man -Tascii -ww -z "$page" 2>&1)
	[ -z "$warn" ] || die "$page: $warn"
	sh "$TOP/userspace/man/render.sh" "$page" > "$OUT/page-$s.txt"
	"$bin" help "$s" | cmp -s - "$OUT/page-$s.txt" ||
		die "blockrange help $s is not its installed page"
	render "$page" > "$OUT/blockrange-$s.1.txt"
	grep -q "^ *blockrange $s" "$OUT/blockrange-$s.1.txt" ||
		die "blockrange-$s(1) has no synopsis of blockrange $s"
	tags "$OUT/blockrange-$s.1.txt" "OPTIONS" > "$OUT/tags-$s"
	[ -s "$OUT/tags-$s" ] || missing="$missing $s"
	cat "$OUT/tags-$s" "$OUT/tags-lookup" "$OUT/tags-reading" > "$OUT/tags-$s-all"
	# The option list of --help: lines "  -x, --xx VALUE   description".
	for o in $("$bin" "$s" --help | grep -E '^ {2,}-' | sed -E 's/^ +//; s/  .*//' |
		   grep -oE '(^|[ ,|])--?[a-zA-Z][a-zA-Z0-9-]*' | sed -E 's/^[ ,|]//' |
		   sort -u); do
		nopts=$((nopts + 1))
		case $o in
		-h | --help) in=$OUT/tags-global ;;	# "every subcommand also takes"
		*) in=$OUT/tags-$s-all ;;
		esac
		grep -qE -- "(^|[^a-zA-Z0-9-])$o([^a-zA-Z0-9-]|\$)" "$in" ||
			missing="$missing $s:$o"
	done
	for sec in EXAMPLES "EXIT STATUS" "SEE ALSO"; do
		grep -q "^$sec" "$OUT/blockrange-$s.1.txt" ||
			die "blockrange-$s(1) has no $sec section"
	done
done
[ -z "$missing" ] || die "the manual pages do not describe:$missing"
[ "$nopts" -gt 50 ] || die "only $nopts options found in the --help texts"
for sec in "EXIT STATUS" EXAMPLES ENVIRONMENT; do
	grep -q "^$sec" "$OUT/blockrange.1.txt" || die "blockrange(1) has no $sec section"
done
ok

# 5. bash completion
comp=$dest$PREFIX/share/bash-completion/completions/blockrange
got=$(bash -c '
	source "$1"
	try() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=();
		_blockrange; printf "%s," "${COMPREPLY[@]}"; echo; }
	try blockrange re
	try blockrange report --max
	try blockrange annotate --for
	try blockrange help an
	try blockrange --ver
' _ "$comp")
expected='report,record,
--max-symbols,--max-blocks,
--format=text,--format=json,
annotate,
--version,'
[ "$got" = "$expected" ] || die "completion gave:
$got"
ok

# 6. uninstall removes everything
$MAKE --no-print-directory -C "$TOP" uninstall DESTDIR="$dest" PREFIX="$PREFIX" \
	> "$OUT/uninstall.log"
left=$(cd "$dest" && find . \( -type f -o -type l \))
[ -z "$left" ] || die "left after uninstall: $left"
ok

echo "check-install: $checks checks passed: $(wc -l < "$OUT/expected") files in DESTDIR$PREFIX, SONAME $BR_SO_NAME, demo and man page example built with pkg-config only, $nopts options of $(echo $subs | wc -w) subcommands in their manual pages, completion, uninstall"
