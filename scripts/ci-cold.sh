#!/bin/bash
# ci-cold.sh: CI's command as a machine without caches runs it, timed. A
# clone of HEAD in a new temporary directory with ../shared beside it (a
# link to this checkout's), no build/, and an empty compiler cache
# (CCACHE_DIR in the temporary directory): `CI=true bash .ci/run`. Then,
# unless CI_COLD_WARM=0, the same in a second fresh clone with the cache the
# first run left: CI's time when the cache survived.
#
# Prints, and writes to build/ci-cold/DATE.txt, each run's exit status,
# total time and its parts' times (the "== check: PART passed in N s"
# lines), with the date, the number of CPUs and the load average before
# and after. CI_COLD_KEEP=1 keeps the temporary directory (its path is
# printed).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$top/.." && pwd)/shared
[ -d "$shared" ] || { echo "ci-cold: $shared not found (CI has ../shared beside the clone)" >&2; exit 1; }
git -C "$top" diff --quiet HEAD -- || echo "ci-cold: note: uncommitted changes are not in the clone (it is of HEAD, $(git -C "$top" rev-parse --short HEAD))" >&2

tmp=$(mktemp -d /tmp/ci-cold.XXXXXX)
[ "${CI_COLD_KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$top/build/ci-cold"
report=$top/build/ci-cold/$(date -u +%Y-%m-%dT%H%M%SZ).txt
export CCACHE_DIR=$tmp/ccache
mkdir -p "$CCACHE_DIR"

# run NAME: one clone, one CI run.
run() {
	local name=$1 dir=$tmp/$1 start rc=0 secs
	mkdir -p "$dir"
	git clone -q --no-hardlinks "$top" "$dir/main"
	ln -s "$shared" "$dir/shared"
	echo "ci-cold: $name run in $dir/main (CCACHE_DIR=$CCACHE_DIR, load $(cut -d' ' -f1-3 /proc/loadavg))"
	{
		echo "== $name run: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) CPUs, commit $(git -C "$dir/main" rev-parse --short HEAD)"
		echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "compiler cache before: $(du -sh "$CCACHE_DIR" | cut -f1)"
	} >> "$report"
	start=$SECONDS
	(cd "$dir/main" && CI=true bash .ci/run) > "$dir/ci.log" 2>&1 || rc=$?
	secs=$((SECONDS - start))
	{
		echo "exit status $rc in $secs s ($((secs / 60)) min $((secs % 60)) s)"
		echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
		grep -E '^== check(-6\.12)?: .* passed in [0-9]+ s$|^check-kernel: .* in [0-9]+ s$' "$dir/ci.log" || true
		echo
	} >> "$report"
	if [ "$rc" != 0 ]; then
		echo "ci-cold: the $name run FAILED (exit $rc); last lines of $dir/ci.log:" >&2
		tail -n 40 "$dir/ci.log" >&2
		cp "$dir/ci.log" "${report%.txt}-$name.log"
		cat "$report"
		exit 1
	fi
	cp "$dir/ci.log" "${report%.txt}-$name.log"
}

run cold
[ "${CI_COLD_WARM:-1}" = 0 ] || run warm
cat "$report"
echo "ci-cold: report in $report"
[ "${CI_COLD_KEEP:-0}" != 1 ] || echo "ci-cold: kept $tmp"
