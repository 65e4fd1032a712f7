#!/bin/bash
# kernel-coverage.sh IMAGE GCOV-DIR...: the line and branch coverage of our
# hwmon.c under the KUnit suites, from the gcov counters that the guests of
# one test kernel reported (scripts/guest/boot.sh --gcov, one GCOV-DIR per
# guest), into BUILD/coverage/kernel/ (gcovr: index.html, coverage.xml,
# summary.txt, summary.json); then the floor of coverage/thresholds.json.
#
# IMAGE is the kernel's image directory (scripts/kernel.sh): gcov/obj/ has
# hwmon.gcno and gcov/src/ the hwmon.c it was compiled from. The guests'
# counters are summed (gcov-tool merge) and gcov reads them beside a copy
# of the notes. The notes name the source by its path in the tree that
# compiled it (ccache never serves a gcov-instrumented object compiled
# elsewhere), so the report is made with that tree switched to our core
# (under the tree lock) and holding the very hwmon.c of the image.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"

die() { echo "kernel-coverage: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: kernel-coverage.sh IMAGE GCOV-DIR..."
image=$1
shift
rel=drivers/hwmon
notes=$image/gcov/obj/$rel/hwmon.gcno
[ -f "$notes" ] || die "$notes missing (an image of our core built by scripts/kernel.sh)"

work=$(mktemp -d "$build/coverage-work.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The counters of each guest: its hwmon.gcda, wherever under the guest's
# gcov tree the kernel kept it (the path of the object as compiled).
n=0
for d in "$@"; do
	f=$(find "$d" -path "*/$rel/hwmon.gcda" 2>/dev/null | head -n 1)
	[ -n "$f" ] || die "no $rel/hwmon.gcda under $d"
	n=$((n + 1))
	mkdir -p "$work/in$n"
	cp "$f" "$work/in$n/hwmon.gcda"
done
cp "$work/in1/hwmon.gcda" "$work/sum.gcda"
for i in $(seq 2 "$n"); do
	rm -rf "$work/merged"
	mkdir -p "$work/a" "$work/merged"
	cp "$work/sum.gcda" "$work/a/hwmon.gcda"
	gcov-tool merge -o "$work/merged" "$work/a" "$work/in$i" ||
		die "gcov-tool could not merge the counters of the guests ($*)"
	cp "$work/merged/hwmon.gcda" "$work/sum.gcda"
	rm -rf "$work/a"
done

obj=$work/obj
mkdir -p "$obj/$rel"
cp "$notes" "$obj/$rel/hwmon.gcno"
cp "$work/sum.gcda" "$obj/$rel/hwmon.gcda"

out=$build/coverage/kernel
rm -rf "$out"
mkdir -p "$out"
tree_lock
"$top/scripts/tree.sh" ours > /dev/null
cmp -s "$tree/$rel/hwmon.c" "$image/gcov/src/$rel/hwmon.c" ||
	die "$tree/$rel/hwmon.c is not the hwmon.c of $image (the core changed since; build again)"
(cd "$obj" && gcovr --config "$top/coverage/gcovr-kernel.cfg" \
	--root "$tree" --filter "$tree/$rel/hwmon\.c\$" --object-directory "$obj" \
	--html-details "$out/index.html" --cobertura "$out/coverage.xml" \
	--cobertura-pretty --txt "$out/summary.txt" --json-summary "$out/summary.json" \
	"$obj/$rel")
exec 9>&-
python3 "$top/coverage/summary.py" "$top/coverage/thresholds.json" \
	kernel="$out/summary.json"
