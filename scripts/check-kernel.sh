#!/bin/bash
# check-kernel.sh [--no-kunit] [--no-bench] [--e2e] [--coverage] VARIANT...:
# the checks of the hwmon cores in QEMU, on the tree KERNEL selects (6.1 or
# 6.12; BUILD is its build root, see kernel-env.sh).
#
# For each VARIANT (stock, ours, newer: see scripts/kernel.sh), in the order
# given: build its test kernel (in the foreground: the tree is switched for
# it), then boot its guests in the background while the next variant
# builds, at most GUEST_JOBS (default: the number of CPUs) at a time. Every
# guest is a scripts/guest/boot.sh run; its output goes to
# BUILD/runs/VARIANT/GUEST/boot.log, and one line says how it ended.
#
# KUnit guests (unless --no-kunit), all suites split over three guests
# that run side by side:
#   fault   hwmon_fault, the allocation-failure sweeps
#   rest    every other hwmon_* suite
#   bench   bench_hwmon (its figures mean nothing here: it runs for its
#           checks, with hwmon_kunit.bench_reps=1 and kmemleak=off; not
#           for newer when ours runs too, as it does not use the option,
#           and not with --no-bench)
# Our core's fault and rest guests (ours, newer) check for leaks and for
# every report of the debugging options (boot.sh --debug). The stock core's
# guests boot with kmemleak=off and are judged by their KUnit results only:
# they test the suites against the stock core, not the stock core against
# the debugging options (kmemleak's bookkeeping makes its fault sweeps
# several times longer).
# --e2e: one more guest each for stock and ours boots without suites and
# writes the end-to-end dump; with both given, e2e/compare.py compares the
# two dumps (e2e/intended-differences-KERNEL.txt).
# --coverage: our core's KUnit guests also report their gcov counters;
# scripts/kernel-coverage.sh merges them into the coverage of hwmon.c
# (BUILD/coverage/kernel/).
#
# Exit status 0 only if every build, guest and comparison passed; the
# first failure's log is shown.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"

kunit=1 bench=1 e2e=0 coverage=0
variants=()
for a in "$@"; do
	case "$a" in
	--no-kunit) kunit=0 ;;
	--no-bench) bench=0 ;;
	--e2e) e2e=1 ;;
	--coverage) coverage=1 ;;
	stock|ours|newer) variants+=("$a") ;;
	*) echo "usage: check-kernel.sh [--no-kunit] [--no-bench] [--e2e] [--coverage] stock|ours|newer..." >&2; exit 2 ;;
	esac
done
[ ${#variants[@]} -gt 0 ] || { echo "check-kernel.sh: no variant given" >&2; exit 2; }
max=${GUEST_JOBS:-$(nproc)}
runs=$build/runs
start=$SECONDS

"$top/scripts/guest/initramfs.sh" "$build/guest/initramfs.cpio"

names=()
# guest VARIANT NAME BOOT-ARGS...: boot.sh in the background, after
# waiting for a free slot; its result goes to BUILD/runs/VARIANT/NAME/result.
guest() {
	local v=$1 name=$2 dir=$runs/$1/$2
	shift 2
	while [ "$(jobs -rp | wc -l)" -ge "$max" ]; do
		wait -n || true
	done
	mkdir -p "$dir"
	rm -f "$dir/result"
	(
		if "$top/scripts/guest/boot.sh" "$build/images/$v" "$dir" "$@" > "$dir/boot.log" 2>&1; then
			echo passed > "$dir/result"
			echo "check-kernel: $kernel $v/$name: passed ($(grep -m1 -o 'ran [0-9]* s' "$dir/boot.log"))"
		else
			echo failed > "$dir/result"
			echo "check-kernel: $kernel $v/$name: FAILED (log: $dir/boot.log)"
		fi
	) &
	names+=("$v/$name")
}

for v in "${variants[@]}"; do
	"$top/scripts/kernel.sh" "$v"
	if [ "$v" = stock ]; then
		opts=(--append kmemleak=off)
	else
		opts=(--debug)
		[ "$coverage" = 1 ] && [ "$v" = ours ] && opts+=(--gcov)
	fi
	if [ "$kunit" = 1 ]; then
		guest "$v" fault --suites 'hwmon_fault' "${opts[@]}"
		guest "$v" rest --suites 'hwmon_[!f]*' "${opts[@]}"
		if [ "$bench" = 1 ] && { [ "$v" != newer ] || [[ " ${variants[*]} " != *" ours "* ]]; }; then
			guest "$v" bench --suites 'bench_hwmon' --append kmemleak=off \
				--append hwmon_kunit.bench_reps=1
		fi
	fi
	if [ "$e2e" = 1 ] && [ "$v" != newer ]; then
		guest "$v" e2e --no-kunit --e2e --append kmemleak=off
	fi
done

wait
status=0
failed=
for n in "${names[@]}"; do
	if [ "$(cat "$runs/$n/result" 2>/dev/null)" != passed ]; then
		status=1
		[ -n "$failed" ] || failed=$n
	fi
done
if [ -n "$failed" ]; then
	echo "--- $runs/$failed/boot.log:" >&2
	tail -n 40 "$runs/$failed/boot.log" >&2
fi

if [ "$status" = 0 ] && [ "$e2e" = 1 ] && [[ " ${variants[*]} " == *" stock "* ]] &&
	[[ " ${variants[*]} " == *" ours "* ]]; then
	python3 "$top/e2e/compare.py" "$runs/ours/e2e/dump.txt" "$runs/stock/e2e/dump.txt" \
		"$top/e2e/intended-differences-$kernel.txt" || status=1
fi
if [ "$status" = 0 ] && [ "$coverage" = 1 ] && [ "$kunit" = 1 ] &&
	[[ " ${variants[*]} " == *" ours "* ]]; then
	"$top/scripts/kernel-coverage.sh" "$build/images/ours" "$runs/ours/fault/gcov" \
		"$runs/ours/rest/gcov" || status=1
fi
echo "check-kernel: $kernel ${variants[*]}: $([ "$status" = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
exit $status
