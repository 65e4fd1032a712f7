#!/bin/bash
# boot.sh IMAGE OUT [OPTION...]: boot the kernel image IMAGE (a directory
# that scripts/kernel.sh filled: bzImage, config) in QEMU (TCG, 2 vCPUs)
# with the guest initramfs (scripts/guest/init), keep everything in OUT and
# check what the options ask for:
#
#   --suites GLOB  run the KUnit suites GLOB matches (kunit.filter_glob):
#                  the console must hold a complete KUnit run without a
#                  failed, crashed or skipped-for-error case (kunit.py parse
#                  of the tree: OUT/parse.txt)
#   --no-kunit     run no suite (kunit.enable=0)
#   --e2e          attach an emulated NVMe controller and write the guest's
#                  end-to-end dump (e2e/dump.sh) to OUT/dump.txt; the
#                  console must show no warning, oops or panic
#   --debug        for a kernel with the debugging options
#                  (kunit/debug.kunitconfig): two kmemleak scans must find
#                  no leak (OUT/kmemleak.txt) and the console must hold no
#                  report of KASAN, UBSAN, lockdep, debug objects, list
#                  debugging or kmemleak (OUT/reports.txt)
#   --gcov         the guest's gcov data, OUT/gcov/<path of each .gcda>
#   --append ARGS  more kernel arguments (may be given more than once)
#
# Logs: OUT/console.txt (the kernel's), OUT/serial1.raw (the guest's
# reports), OUT/qemu.log. KERNEL and BUILD select the tree whose kunit.py
# parses the log (scripts/kernel-env.sh). GUEST_TIMEOUT (seconds, default
# 2400) bounds the boot.
set -euo pipefail

usage() {
	echo "usage: boot.sh IMAGE OUT [--suites GLOB | --no-kunit] [--e2e] [--debug] [--gcov] [--append ARGS]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
image=$(realpath -m "$1") out=$(realpath -m "$2")
shift 2
suites= e2e=0 debug=0 gcov=0 append= kunit=
while [ $# -gt 0 ]; do
	case "$1" in
	--suites) [ $# -ge 2 ] || usage; suites=$2 kunit=1; shift ;;
	--no-kunit) kunit=0 ;;
	--e2e) e2e=1 ;;
	--debug) debug=1 ;;
	--gcov) gcov=1 ;;
	--append) [ $# -ge 2 ] || usage; append+=" $2"; shift ;;
	*) usage ;;
	esac
	shift
done
[ -n "$kunit" ] || usage

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/kernel-env.sh"
timeout=${GUEST_TIMEOUT:-2400}
initrd=$build/guest/initramfs.cpio
tag=${out#"$build"/}

fail() {
	echo "guest: $tag: $*" >&2
	exit 1
}

for f in "$image/bzImage" "$initrd"; do
	[ -f "$f" ] || fail "$f not found (scripts/kernel.sh builds images, scripts/guest/initramfs.sh the initramfs)"
done
mkdir -p "$out"
rm -rf "$out/console.log" "$out/console.txt" "$out/serial1.raw" "$out/dump.txt" \
	"$out/gcov" "$out/parse.txt" "$out/kmemleak.txt" "$out/kmemleak-all.txt" \
	"$out/reports.txt"

cmdline="console=ttyS0 panic=-1 printk.time=1"
if [ "$kunit" = 1 ]; then
	cmdline+=" kunit.enable=1 kunit.filter_glob=$suites"
else
	cmdline+=" kunit.enable=0"
fi
qemu_extra=()
if [ "$e2e" = 1 ]; then
	cmdline+=" guest.e2e=1"
	# A fresh, empty backing image for the NVMe namespace on every boot.
	rm -f "$out/nvme.img"
	truncate -s 4M "$out/nvme.img"
	qemu_extra+=(-drive "file=$out/nvme.img,if=none,id=nvm,format=raw"
		-device nvme,serial=e2e0001,drive=nvm)
fi
[ "$debug" = 1 ] && cmdline+=" guest.kmemleak=1"
[ "$gcov" = 1 ] && cmdline+=" guest.gcov=1"
cmdline+=$append

echo "guest: $tag: booting $image/bzImage: $cmdline"
start=$SECONDS
rc=0
# Two CPUs, so that the race suite's kthreads really run in parallel.
timeout "$timeout" qemu-system-x86_64 -nodefaults -accel tcg -m 1024 -smp 2 \
	-bios qboot.rom -nographic -no-reboot -monitor none \
	-kernel "$image/bzImage" -initrd "$initrd" -append "$cmdline" \
	-serial "file:$out/console.log" -serial "file:$out/serial1.raw" \
	"${qemu_extra[@]}" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
tr -d '\r' < "$out/console.log" > "$out/console.txt"
[ "$rc" != 124 ] || fail "QEMU did not exit within ${timeout}s (see $out/console.txt)"
[ "$rc" = 0 ] || fail "QEMU exited with status $rc: $(head -c 500 "$out/qemu.log")"
echo "guest: $tag: ran $((SECONDS - start)) s"
grep -aqx '@@GUEST-DONE@@' "$out/serial1.raw" ||
	fail "the guest stopped before its last report (see $out/console.txt, $out/serial1.raw)"

# section BEGIN END: the lines of serial1.raw between the markers.
section() {
	sed -n "/^$1\$/,/^$2\$/p" "$out/serial1.raw"
}

if [ "$kunit" = 1 ]; then
	# kunit.py parse fails on failed or crashed cases and on a log
	# without KTAP output.
	if ! (cd "$build/src" && python3 tools/testing/kunit/kunit.py parse "$out/console.txt") \
		> "$out/parse.txt" 2>&1; then
		tail -n 40 "$out/parse.txt" >&2
		fail "KUnit run failed (whole parse in $out/parse.txt)"
	fi
	summary=$(grep -E 'Testing complete\.' "$out/parse.txt" | tail -n 1 | sed 's/\x1b\[[0-9;]*m//g')
	case "$summary" in
	*"errors: "[1-9]*|*"crashed: "[1-9]*|*"failed: "[1-9]*|'') fail "bad summary: '$summary'" ;;
	esac
	echo "guest: $tag: ${summary#*] }"
fi

if [ "$e2e" = 1 ]; then
	section '@@E2E-BEGIN@@' '@@E2E-END@@' > "$out/dump.txt"
	grep -qx '@@E2E-BEGIN@@' "$out/dump.txt" || fail "no end-to-end dump in $out/serial1.raw"
	grep -qx '@@E2E-END@@' "$out/dump.txt" || fail "the end-to-end dump in $out/serial1.raw stops before @@E2E-END@@"
	if grep -nE 'WARNING:|BUG:|Oops|Call Trace|Kernel panic|general protection' "$out/console.txt" >&2; then
		fail "the kernel log shows a warning, oops or panic (lines above)"
	fi
	echo "guest: $tag: $(wc -l < "$out/dump.txt") dump lines in $out/dump.txt"
fi

if [ "$debug" = 1 ]; then
	# Leaks: the scans must have run. Two kinds of objects are kept in
	# kmemleak-all.txt but not counted: those allocated by the boot CPU's
	# idle task (comm "swapper", pid 0: early boot, before any initcall or
	# test), and
	# the logs KUnit's debugfs code allocates for each suite: with
	# kunit.filter_glob, 6.1's executor frees its filtered suite copies but
	# not their logs (a KUnit bug; code under test never allocates there).
	grep -aqx '@@KMEMLEAK-SCANNED@@' "$out/serial1.raw" ||
		fail "the kmemleak scan did not run (see $out/serial1.raw)"
	section '@@KMEMLEAK-BEGIN@@' '@@KMEMLEAK-END@@' > "$out/kmemleak-all.txt"
	grep -qx '@@KMEMLEAK-END@@' "$out/kmemleak-all.txt" ||
		fail "no complete kmemleak report in $out/serial1.raw"
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
	echo "guest: $tag: kmemleak: no leak ($(grep -c '^unreferenced object' "$out/kmemleak-all.txt" || true) early-boot or KUnit log object(s) not counted)"

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
	echo "guest: $tag: no KASAN/UBSAN/lockdep/debug-objects/list/kmemleak report"
fi

if [ "$gcov" = 1 ]; then
	# Each file: "@@GCOV-BEGIN@@ PATH", its bytes in base64, "@@GCOV-END@@".
	rm -rf "$out/gcov"
	mkdir -p "$out/gcov"
	n=0
	path=
	while IFS= read -r line; do
		case "$line" in
		'@@GCOV-BEGIN@@ '*)
			path=$out/gcov${line#@@GCOV-BEGIN@@ }
			mkdir -p "$(dirname "$path")"
			: > "$path.b64" ;;
		'@@GCOV-END@@')
			[ -n "$path" ] || fail "a gcov record without a beginning in $out/serial1.raw"
			base64 -d < "$path.b64" > "$path" || fail "a damaged gcov record in $out/serial1.raw ($path)"
			rm -f "$path.b64"
			path=
			n=$((n + 1)) ;;
		*)
			[ -z "$path" ] || printf '%s\n' "$line" >> "$path.b64" ;;
		esac
	done < "$out/serial1.raw"
	[ -z "$path" ] || fail "a gcov record in $out/serial1.raw has no end"
	[ "$n" -gt 0 ] || fail "the guest reported no gcov data (is CONFIG_GCOV_KERNEL on?)"
	echo "guest: $tag: $n gcov file(s) in $out/gcov"
fi
