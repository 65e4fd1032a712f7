#!/bin/bash
# bench-hwmon.sh KERNEL...: the KUnit-hosted hwmon benchmark (bench_hwmon,
# kunit/hwmon_bench.c) on both cores of each tree (KERNEL = 6.1, 6.12).
#
# For each tree:
#  1. build the KUnit kernel of each core with kunit.py (.kunitconfig, in
#     BUILD/bench/CORE/kunit), the one tree (BUILD/src) switched to the core
#     under the tree lock;
#  2. boot them BENCH_HWMON_BOOTS times each (default 8), alternating in
#     ABBA order (ours stock, stock ours, ours stock, ...), so that a load
#     that rises or falls during the run weighs on both cores alike. Each
#     boot runs only bench_hwmon with hwmon_kunit.bench_reps=
#     BENCH_HWMON_REPS (default 100): every timed figure of the boot is the
#     median of that many repetitions, interleaved with those of the other
#     figures. The log is kept as build/bench/hwmon-KERNEL-CORE-N.log, with
#     the load average at the start of the boot in hwmon-KERNEL-CORE-N.load;
#  3. unless BENCH_HWMON_ICOUNT=0, boot each core once more with QEMU's
#     -icount shift=0 and only the timed case (BENCH_HWMON_ICOUNT_REPS
#     repetitions, 5): the guest clock then advances by 1 ns per guest
#     instruction, so the "times" of that boot are instruction counts that
#     do not depend on the host or its load:
#     build/bench/hwmon-KERNEL-CORE-icount.log;
#  4. unless BENCH_HWMON_COUNTS=0, build the counts kernel of each core
#     (.kunitconfig plus kunit/counts.kunitconfig, the function tracer, in
#     BUILD/bench/CORE/kunit-counts) and boot it once with only the counting case:
#     build/bench/hwmon-KERNEL-CORE-counts.log. Counts do not depend on the
#     load; one boot per core is enough.
# bench-hwmon.py then pairs the boots round by round.
#
# Environment: BENCH_OUT (default build/bench), BENCH_HWMON_BOOTS,
# BENCH_HWMON_REPS, BENCH_HWMON_ICOUNT, BENCH_HWMON_ICOUNT_REPS,
# BENCH_HWMON_COUNTS, JOBS.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
boots=${BENCH_HWMON_BOOTS:-8}
reps=${BENCH_HWMON_REPS:-100}
counts=${BENCH_HWMON_COUNTS:-1}
icount=${BENCH_HWMON_ICOUNT:-1}
icount_reps=${BENCH_HWMON_ICOUNT_REPS:-5}
out=${BENCH_OUT:-$top/build/bench}
jobs=${JOBS:-$(nproc)}
[ $# -ge 1 ] || { echo "usage: bench-hwmon.sh KERNEL..." >&2; exit 2; }
[[ $boots =~ ^[1-9][0-9]*$ ]] || { echo "bench-hwmon: BENCH_HWMON_BOOTS must be a number >= 1, not '$boots'" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench-hwmon: BENCH_HWMON_REPS must be a number >= 1, not '$reps'" >&2; exit 2; }
case "$counts" in 0|1) ;; *) echo "bench-hwmon: BENCH_HWMON_COUNTS must be 0 or 1, not '$counts'" >&2; exit 2 ;; esac
case "$icount" in 0|1) ;; *) echo "bench-hwmon: BENCH_HWMON_ICOUNT must be 0 or 1, not '$icount'" >&2; exit 2 ;; esac
[[ $icount_reps =~ ^[1-9][0-9]*$ ]] || { echo "bench-hwmon: BENCH_HWMON_ICOUNT_REPS must be a number >= 1, not '$icount_reps'" >&2; exit 2; }
mkdir -p "$out"

# kunit DIR KUNITCONFIG ACTION ARGS...: kunit.py ACTION with build
# directory DIR (its build from the tree as it is: see kbuild below).
kunit() {
	local dir=$1 kconf=$2 action=$3
	shift 3
	mkdir -p "$dir"
	(cd "$tree" && exec python3 tools/testing/kunit/kunit.py "$action" --arch=x86_64 \
		--kunitconfig="$kconf" --build_dir="$dir" "$@")
}

# kbuild CORE DIR KUNITCONFIG LOG: kunit.py build of CORE's kernel in DIR,
# the tree switched to CORE and locked for the build.
kbuild() {
	(
		tree_lock
		"$top/scripts/tree.sh" "$1" > /dev/null
		kunit "$2" "$3" build --jobs="$jobs"
	) > "$4" 2>&1 || { tail -20 "$4" >&2; exit 1; }
}

# counts_config CORE: the counts kernel's kunitconfig, rewritten only when
# it changed (kunit.py reconfigures when it does).
counts_config() {
	local dir=$build/bench/$1/kunit-counts
	mkdir -p "$dir"
	cat "$top/.kunitconfig" "$top/kunit/counts.kunitconfig" > "$dir/kunitconfig.new"
	if cmp -s "$dir/kunitconfig.new" "$dir/kunitconfig"; then
		rm -f "$dir/kunitconfig.new"
	else
		mv -f "$dir/kunitconfig.new" "$dir/kunitconfig"
	fi
	echo "$dir/kunitconfig"
}

for k in "$@"; do
	(
		export KERNEL=$k
		unset BUILD
		. "$top/scripts/kernel-env.sh"
		export BUILD=$build
		for core in stock ours; do
			echo "bench-hwmon: $kernel: building the $core KUnit kernel"
			kbuild "$core" "$build/bench/$core/kunit" "$top/.kunitconfig" \
				"$out/hwmon-$kernel-$core-build.log"
		done
		rm -f "$out"/hwmon-"$kernel"-ours-[0-9]*.{log,load} "$out"/hwmon-"$kernel"-stock-[0-9]*.{log,load}
		for i in $(seq 1 "$boots"); do
			if [ $((i % 2)) = 1 ]; then order="ours stock"; else order="stock ours"; fi
			for core in $order; do
				log=$out/hwmon-$kernel-$core-$i.log
				echo "bench-hwmon: $kernel: boot $i of $boots: $core ($(cut -d' ' -f1-3 /proc/loadavg))"
				cut -d' ' -f1-3 /proc/loadavg > "$out/hwmon-$kernel-$core-$i.load"
				kunit "$build/bench/$core/kunit" "$top/.kunitconfig" \
					exec --qemu_args="-smp 2" --kernel_args="hwmon_kunit.bench_reps=$reps" \
					--timeout=3600 bench_hwmon > "$log.out" 2>&1 ||
					{ tail -20 "$log.out" >&2; exit 1; }
				cp "$build/bench/$core/kunit/test.log" "$log"
			done
		done
		rm -f "$out"/hwmon-"$kernel"-*-icount.log
		for core in stock ours; do
			[ "$icount" = 1 ] || break
			log=$out/hwmon-$kernel-$core-icount.log
			echo "bench-hwmon: $kernel: instruction counts (-icount): $core"
			kunit "$build/bench/$core/kunit" "$top/.kunitconfig" \
				exec --qemu_args="-smp 2 -icount shift=0" \
				--kernel_args="hwmon_kunit.bench_reps=$icount_reps" --timeout=3600 \
				'bench_hwmon.bench_hwmon_register' > "$log.out" 2>&1 ||
				{ tail -20 "$log.out" >&2; exit 1; }
			cp "$build/bench/$core/kunit/test.log" "$log"
		done
		[ "$counts" = 1 ] || exit 0
		rm -f "$out"/hwmon-"$kernel"-*-counts.log
		for core in stock ours; do
			kconf=$(counts_config "$core")
			echo "bench-hwmon: $kernel: building the $core counts kernel"
			kbuild "$core" "$build/bench/$core/kunit-counts" "$kconf" \
				"$out/hwmon-$kernel-$core-counts-build.log"
			log=$out/hwmon-$kernel-$core-counts.log
			echo "bench-hwmon: $kernel: counts: $core"
			kunit "$build/bench/$core/kunit-counts" "$kconf" \
				exec --qemu_args="-smp 2" --timeout=3600 \
				'bench_hwmon.bench_hwmon_count' > "$log.out" 2>&1 ||
				{ tail -20 "$log.out" >&2; exit 1; }
			cp "$build/bench/$core/kunit-counts/test.log" "$log"
		done
	)
done
