#!/bin/bash
# kunit-debug.sh build CORE | boot CORE... : the KUnit suites on a debug
# kernel of each CORE (ours|stock).
#
#  build: kunit.py builds build/CORE/kunit-debug from build/CORE/src with
#     .kunitconfig plus kunit/debug.kunitconfig (KASAN, UBSAN, lockdep,
#     debug objects, list debugging, kmemleak; kunit.py fails if any option
#     did not take effect). Our core's debug kernel also has
#     kunit/newer-api.kunitconfig (CONFIG_HWMON_NEWER_API and its sample
#     driver): on 6.1 this run is the one of the option in make check
#     (on 6.12, make kunit-newer-api), and the new code gets the
#     debugging options too, at no extra kernel build.
#  boot: QEMU boots the kernels with a busybox initramfs, all at the same
#     time: for our core one guest runs the fault-injection suite and one
#     the other suites, for the stock core one guest runs all but the
#     fault-injection suite (see below). A debug guest mostly keeps one host
#     CPU busy, so this is about twice as fast as one guest per core after
#     the other. The suites run built
#     in, before init; then /init scans for leaks twice (kmemleak reports an
#     object only when it was unreferenced and unchanged over two scans),
#     prints the result between markers and reboots (QEMU exits). The console
#     log must hold a complete KUnit run without failures (kunit.py parse), a
#     successful kmemleak scan without a leak, and no report of any debugging
#     option (the patterns below).
#
# KERNEL=6.1|6.12 selects the tree (scripts/kernel-env.sh; BUILD below is
# its build root).
# Logs: BUILD/CORE/kunit-debug/GUEST/console.txt (whole), kmemleak.txt,
# parse.txt, reports.txt (GUEST: fault, rest).
set -euo pipefail

usage() {
	echo "usage: kunit-debug.sh build ours|stock, or kunit-debug.sh boot ours|stock..." >&2
	exit 2
}
mode=${1:-}
[ $# -gt 0 ] && shift
case "$mode" in build) [ $# = 1 ] || usage ;; boot) [ $# -ge 1 ] || usage ;; *) usage ;; esac
for core in "$@"; do
	case "$core" in ours|stock) ;; *) echo "kunit-debug.sh: unknown core '$core' (expected ours or stock)" >&2; exit 2 ;; esac
done

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
jobs=${JOBS:-$(nproc)}
timeout=${KUNIT_DEBUG_TIMEOUT:-2400}
busybox=/bin/busybox
initramfs=$build/kunit-debug-initramfs.cpio

# Build CORE's debug kernel. The kunitconfig is rewritten only when it
# changed, so kunit.py does not reconfigure (and kbuild rebuild everything)
# for nothing.
build_kernel() {
	local core=$1 src=$build/$1/src out=$build/$1/kunit-debug

	[ -f "$src/Makefile" ] || { echo "kunit-debug.sh: $src is not a kernel tree (run 'make tree-$core')" >&2; exit 1; }
	mkdir -p "$out"
	exec 9>"$build/$core/kunit-debug.lock"
	flock 9
	cat "$top/.kunitconfig" "$top/kunit/debug.kunitconfig" > "$out/kunitconfig.new"
	[ "$core" = ours ] && cat "$top/kunit/newer-api.kunitconfig" >> "$out/kunitconfig.new"
	if cmp -s "$out/kunitconfig.new" "$out/kunitconfig"; then
		rm -f "$out/kunitconfig.new"
	else
		mv -f "$out/kunitconfig.new" "$out/kunitconfig"
	fi
	(cd "$src" && python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
		--kunitconfig="$out/kunitconfig" --build_dir="$out" --jobs="$jobs")
}

# The initramfs: busybox and an /init that scans for leaks.
make_initramfs() {
	local stage

	[ -x "$busybox" ] || { echo "kunit-debug.sh: $busybox not found (run 'make deps')" >&2; exit 1; }
	if ldd "$busybox" >/dev/null 2>&1; then
		echo "kunit-debug.sh: $busybox is dynamically linked (install busybox-static)" >&2
		exit 1
	fi
	mkdir -p "$build"
	stage=$(mktemp -d "$initramfs.XXXXXX")
	mkdir -p "$stage"/{bin,dev,proc,sys}
	cp "$busybox" "$stage/bin/busybox"
	for applet in sh mount cat echo sleep reboot; do
		ln -s busybox "$stage/bin/$applet"
	done
	cat > "$stage/init" <<'INIT'
#!/bin/sh
# The KUnit suites ran before init. Two kmemleak scans, then the report.
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
k=/sys/kernel/debug/kmemleak
# kmemleak ignores objects younger than 5 s.
sleep 6
if echo scan > $k && sleep 1 && echo scan > $k; then
	echo "@@KMEMLEAK-SCANNED@@"
else
	echo "@@KMEMLEAK-SCAN-FAILED@@"
fi
echo "@@KMEMLEAK-BEGIN@@"
cat $k
echo "@@KMEMLEAK-END@@"
# This kernel cannot power the machine off (no ACPI power-off path is
# used): reboot, and QEMU (-no-reboot) exits.
reboot -f
INIT
	chmod 0755 "$stage/init"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) > "$initramfs"
	rm -rf "$stage"
}

fail() {
	echo "kunit-debug: $core: $*" >&2
	exit 1
}

# Boot CORE's debug kernel running the suites GLOB matches, as guest TAG,
# and check its log (run in a subshell).
boot_and_check() {
	local core=$1 glob=$2 tag=$3 kdir=$build/$1/kunit-debug src=$build/$1/src
	local out=$build/$1/kunit-debug/$3 rc=0 start summary reports

	core="$core/$tag"
	[ -f "$kdir/arch/x86/boot/bzImage" ] || fail "no kernel in $kdir (run 'make kunit-debug-build-${core%/*}')"
	mkdir -p "$out"
	rm -f "$out/console.log" "$out/console.txt"
	echo "kunit-debug: $core: booting $kdir/arch/x86/boot/bzImage, suites $glob (timeout ${timeout}s)"
	start=$(date +%s)
	# Two CPUs so that the race suite's kthreads really run in parallel.
	timeout "$timeout" qemu-system-x86_64 -nodefaults -accel tcg -m 1024 -smp 2 \
		-bios qboot.rom -nographic -no-reboot -monitor none \
		-kernel "$kdir/arch/x86/boot/bzImage" -initrd "$initramfs" \
		-append "console=ttyS0 kunit.enable=1 kunit.filter_glob=$glob panic=-1 printk.time=1" \
		-serial "file:$out/console.log" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
	[ "$rc" != 124 ] || fail "QEMU did not exit within ${timeout}s (see $out/console.log)"
	[ "$rc" = 0 ] || fail "QEMU exited with status $rc: $(head -c 500 "$out/qemu.log")"
	tr -d '\r' < "$out/console.log" > "$out/console.txt"
	echo "kunit-debug: $core: guest ran $(($(date +%s) - start)) s"

	# KUnit results: kunit.py parse fails on failed or crashed cases and on
	# a log without KTAP output.
	if ! (cd "$src" && python3 tools/testing/kunit/kunit.py parse "$out/console.txt") \
		> "$out/parse.txt" 2>&1; then
		tail -n 40 "$out/parse.txt" >&2
		fail "KUnit run failed (whole parse in $out/parse.txt)"
	fi
	summary=$(grep -E 'Testing complete\.' "$out/parse.txt" | tail -n 1 | sed 's/\x1b\[[0-9;]*m//g')
	case "$summary" in
	*"errors: "[1-9]*|*"crashed: "[1-9]*|*"failed: "[1-9]*|'') fail "bad summary: '$summary'" ;;
	esac
	echo "kunit-debug: $core: ${summary#*] }"

	# Leaks: the scans must have run. Two kinds of objects are kept in
	# kmemleak-all.txt but not counted: those allocated by the boot CPU's
	# idle task (comm "swapper", pid 0: early boot, before any initcall or
	# test; ACPI's early caches show up on every boot of this kernel), and
	# the logs KUnit's debugfs code allocates for each suite: with
	# kunit.filter_glob, 6.1's executor frees its filtered suite copies but
	# not their logs (a KUnit bug; code under test never allocates there).
	grep -qx '@@KMEMLEAK-SCANNED@@' "$out/console.txt" ||
		fail "the kmemleak scan did not run (see $out/console.txt)"
	sed -n '/^@@KMEMLEAK-BEGIN@@$/,/^@@KMEMLEAK-END@@$/p' "$out/console.txt" > "$out/kmemleak-all.txt"
	grep -qx '@@KMEMLEAK-END@@' "$out/kmemleak-all.txt" ||
		fail "no complete kmemleak report in $out/console.txt"
	awk '/^@@KMEMLEAK/ { next }
	     /^unreferenced object/ { if (obj != "" && !boot) printf "%s", obj; obj = ""; boot = 0 }
	     /^  comm "swapper", pid 0,/ { boot = 1 }
	     / kunit_debugfs_create_suite\+/ { boot = 1 }
	     { obj = obj $0 "\n" }
	     END { if (obj != "" && !boot) printf "%s", obj }' \
		"$out/kmemleak-all.txt" > "$out/kmemleak.txt"
	if [ -s "$out/kmemleak.txt" ]; then
		head -n 60 "$out/kmemleak.txt" >&2
		fail "kmemleak found $(grep -c '^unreferenced object' "$out/kmemleak.txt") leak(s) ($out/kmemleak.txt)"
	fi
	echo "kunit-debug: $core: kmemleak: no leak ($(grep -c '^unreferenced object' "$out/kmemleak-all.txt" || true) early-boot or KUnit log object(s) not counted)"

	# Reports of the debugging options (KASAN and UBSAN banners, lockdep
	# and DEBUG_LOCKS, debug objects, list corruption, warnings, oopses,
	# kmemleak turning itself off). Leaks are judged above, not by its
	# "new suspected memory leaks" line, which the uncounted objects cause.
	reports='BUG: |WARNING: |UBSAN: |KASAN: |ODEBUG: |list_(add|del) corruption|'
	reports+='general protection fault|Kernel panic|Oops|INFO: (possible|task|trying)|'
	reports+='DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|'
	reports+='suspicious RCU usage|kmemleak: .*([Dd]isabled|kmemleak_object)'
	if grep -nE "$reports" "$out/console.txt" > "$out/reports.txt"; then
		head -n 20 "$out/reports.txt" >&2
		fail "the kernel log has $(wc -l < "$out/reports.txt") report line(s) ($out/reports.txt, $out/console.txt)"
	fi
	echo "kunit-debug: $core: no KASAN/UBSAN/lockdep/debug-objects/list/kmemleak report"
}

case "$mode" in
build)
	core=$1
	build_kernel "$1"
	;;
boot)
	core=initramfs
	make_initramfs
	# Every suite but bench_hwmon (hwmon_*): it measures time and memory,
	# which mean nothing on this kernel, and takes minutes here; what it
	# registers and unregisters the other suites cover. hwmon_[!f]* is
	# every suite but hwmon_fault. The stock core's hwmon_fault runs only
	# with KUNIT_DEBUG_STOCK_FAULT=1: its sweeps take 20 minutes on this
	# kernel (kmemleak's own allocations double the fault points, and each
	# attempt costs in proportion to its point) and check a property of the
	# stock core's error paths, not of ours; the normal stock run (make
	# kunit CORE=stock) has them.
	pids=()
	for core in "$@"; do
		if [ "$core" = ours ] || [ "${KUNIT_DEBUG_STOCK_FAULT:-0}" = 1 ]; then
			( boot_and_check "$core" 'hwmon_fault' fault ) &
			pids+=($!)
		fi
		( boot_and_check "$core" 'hwmon_[!f]*' rest ) &
		pids+=($!)
	done
	status=0
	for pid in "${pids[@]}"; do
		wait "$pid" || status=1
	done
	exit $status
	;;
esac
