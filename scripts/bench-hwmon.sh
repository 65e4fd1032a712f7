#!/bin/bash
# bench-hwmon.sh KERNEL...: the KUnit-hosted hwmon benchmark (bench_hwmon,
# kunit/hwmon_bench.c) on both cores of each tree (KERNEL = 6.1, 6.12).
#
# For each tree: prepare both trees and build both KUnit kernels (the same
# build directories, configuration and flock as "make kunit"), then boot
# them BENCH_HWMON_BOOTS times each (default 5), alternating in ABBA order
# (ours stock, stock ours, ours stock, ...), so that a load that rises or
# falls during the run weighs on both cores alike. Each boot runs only
# bench_hwmon; its log is kept as build/bench/hwmon-KERNEL-CORE-N.log.
# bench-hwmon.py then pairs the boots round by round.
#
# Environment: BENCH_OUT (default build/bench), JOBS.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
boots=${BENCH_HWMON_BOOTS:-5}
out=${BENCH_OUT:-$top/build/bench}
jobs=${JOBS:-$(nproc)}
[ $# -ge 1 ] || { echo "usage: bench-hwmon.sh KERNEL..." >&2; exit 2; }
[ "$boots" -ge 1 ] || { echo "bench-hwmon: BENCH_HWMON_BOOTS must be >= 1" >&2; exit 2; }
mkdir -p "$out"

kunit() {	# kunit CORE ACTION ARGS...: kunit.py ACTION on CORE's tree
	local core=$1 action=$2
	shift 2
	mkdir -p "$build/$core/kunit"
	flock "$build/$core/kunit.lock" sh -c 'cd "$1/src" && shift && exec python3 tools/testing/kunit/kunit.py "$@"' \
		sh "$build/$core" "$action" --arch=x86_64 --kunitconfig="$top/.kunitconfig" \
		--build_dir="$build/$core/kunit" "$@"
}

for k in "$@"; do
	(
		export KERNEL=$k
		unset BUILD
		. "$top/scripts/kernel-env.sh"
		export BUILD=$build
		for core in stock ours; do
			"$top/scripts/tree.sh" "$core" > /dev/null
			echo "bench-hwmon: $kernel: building the $core KUnit kernel"
			kunit "$core" build --jobs="$jobs" > "$out/hwmon-$kernel-$core-build.log" 2>&1 ||
				{ tail -20 "$out/hwmon-$kernel-$core-build.log" >&2; exit 1; }
		done
		rm -f "$out"/hwmon-"$kernel"-ours-[0-9]*.log "$out"/hwmon-"$kernel"-stock-[0-9]*.log
		for i in $(seq 1 "$boots"); do
			if [ $((i % 2)) = 1 ]; then order="ours stock"; else order="stock ours"; fi
			for core in $order; do
				log=$out/hwmon-$kernel-$core-$i.log
				echo "bench-hwmon: $kernel: boot $i of $boots: $core"
				kunit "$core" exec --qemu_args="-smp 2" bench_hwmon > "$log.out" 2>&1 ||
					{ tail -20 "$log.out" >&2; exit 1; }
				cp "$build/$core/kunit/test.log" "$log"
			done
		done
	)
done
