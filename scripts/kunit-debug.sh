#!/bin/bash
# kunit-debug.sh CORE: the KUnit suites on a debug kernel of CORE (ours|stock).
#
#  1. kunit.py builds build/CORE/kunit-debug from build/CORE/src with
#     .kunitconfig plus kunit/debug.kunitconfig (KASAN, UBSAN, lockdep,
#     debug objects, list debugging, kmemleak; kunit.py fails if any option
#     did not take effect).
#  2. QEMU boots it with a busybox initramfs. The suites run built in, before
#     init; then /init scans for leaks twice (kmemleak reports an object only
#     when it was unreferenced and unchanged over two scans) and prints the
#     result between markers, and powers off.
#  3. The console log must hold a complete KUnit run without failures
#     (kunit.py parse), a successful kmemleak scan with an empty result, and
#     no report of any debugging option (the patterns below).
#
# Logs: build/CORE/kunit-debug/console.log (whole), kmemleak.txt, parse.txt.
set -euo pipefail

core=${1:?usage: kunit-debug.sh ours|stock}
case "$core" in ours|stock) ;; *) echo "kunit-debug.sh: unknown core '$core' (expected ours or stock)" >&2; exit 2 ;; esac

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
src=$build/$core/src
out=$build/$core/kunit-debug
jobs=${JOBS:-$(nproc)}
timeout=${KUNIT_DEBUG_TIMEOUT:-1500}
busybox=/bin/busybox

[ -f "$src/Makefile" ] || { echo "kunit-debug.sh: $src is not a kernel tree (run 'make tree-$core')" >&2; exit 1; }
[ -x "$busybox" ] || { echo "kunit-debug.sh: $busybox not found (run 'make deps')" >&2; exit 1; }
if ldd "$busybox" >/dev/null 2>&1; then
	echo "kunit-debug.sh: $busybox is dynamically linked (install busybox-static)" >&2
	exit 1
fi

mkdir -p "$out"
exec 9>"$build/$core/kunit-debug.lock"
flock 9

fail() {
	echo "kunit-debug: $core: $*" >&2
	exit 1
}

# 1. Build. The kunitconfig is rewritten only when it changed, so kunit.py
# does not reconfigure (and kbuild rebuild everything) for nothing.
cat "$top/.kunitconfig" "$top/kunit/debug.kunitconfig" > "$out/kunitconfig.new"
if cmp -s "$out/kunitconfig.new" "$out/kunitconfig"; then
	rm -f "$out/kunitconfig.new"
else
	mv -f "$out/kunitconfig.new" "$out/kunitconfig"
fi
(cd "$src" && python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
	--kunitconfig="$out/kunitconfig" --build_dir="$out" --jobs="$jobs")

# 2. The initramfs: busybox and an /init that scans for leaks.
stage=$(mktemp -d "$out/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys}
cp "$busybox" "$stage/bin/busybox"
for applet in sh mount cat echo sleep poweroff; do
	ln -s busybox "$stage/bin/$applet"
done
cat > "$stage/init" <<'EOF'
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
poweroff -f
EOF
chmod 0755 "$stage/init"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0) > "$out/initramfs.cpio"

# 3. Boot. Two CPUs so that the race suite's kthreads really run in parallel.
rm -f "$out/console.log"
echo "kunit-debug: $core: booting $out/arch/x86/boot/bzImage (timeout ${timeout}s)"
start=$(date +%s)
rc=0
timeout "$timeout" qemu-system-x86_64 -nodefaults -accel tcg -m 1024 -smp 2 \
	-bios qboot.rom -nographic -no-reboot -monitor none \
	-kernel "$out/arch/x86/boot/bzImage" -initrd "$out/initramfs.cpio" \
	-append "console=ttyS0 kunit.enable=1 panic=-1" \
	-serial "file:$out/console.log" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
[ "$rc" != 124 ] || fail "QEMU did not power off within ${timeout}s (see $out/console.log)"
[ "$rc" = 0 ] || fail "QEMU exited with status $rc: $(head -c 500 "$out/qemu.log")"
echo "kunit-debug: $core: guest ran $(($(date +%s) - start)) s"
tr -d '\r' < "$out/console.log" > "$out/console.txt"

# KUnit results: kunit.py parse fails on failed or crashed cases and on a
# log without KTAP output.
if ! (cd "$src" && python3 tools/testing/kunit/kunit.py parse "$out/console.txt") \
	> "$out/parse.txt" 2>&1; then
	tail -n 40 "$out/parse.txt" >&2
	fail "KUnit run failed (whole parse in $out/parse.txt)"
fi
summary=$(grep -E 'Testing complete\.' "$out/parse.txt" | tail -n 1 | sed 's/\x1b\[[0-9;]*m//g')
echo "kunit-debug: $core: ${summary#*] }"
case "$summary" in
*"errors: "[1-9]*|*"crashed: "[1-9]*|*"failed: "[1-9]*|'') fail "bad summary: '$summary'" ;;
esac

# Leaks: the scans must have run, and found nothing.
grep -qx '@@KMEMLEAK-SCANNED@@' "$out/console.txt" ||
	fail "the kmemleak scan did not run (see $out/console.txt)"
sed -n '/^@@KMEMLEAK-BEGIN@@$/,/^@@KMEMLEAK-END@@$/p' "$out/console.txt" > "$out/kmemleak.txt"
grep -qx '@@KMEMLEAK-END@@' "$out/kmemleak.txt" || fail "no complete kmemleak report in $out/console.txt"
if [ "$(wc -l < "$out/kmemleak.txt")" != 2 ]; then
	head -n 60 "$out/kmemleak.txt" >&2
	fail "kmemleak found leaks ($out/kmemleak.txt)"
fi

# Reports of the debugging options (KASAN and UBSAN banners, lockdep and
# DEBUG_LOCKS, debug objects, list corruption, warnings, oopses).
reports='BUG: |WARNING: |UBSAN: |KASAN: |ODEBUG: |list_(add|del) corruption|'
reports+='general protection fault|Kernel panic|Oops|INFO: (possible|task|trying)|'
reports+='DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|'
reports+='suspicious RCU usage|kmemleak: .*(leak|[Dd]isabl|Cannot)'
if grep -nE "$reports" "$out/console.txt" > "$out/reports.txt"; then
	head -n 20 "$out/reports.txt" >&2
	fail "the kernel log has $(wc -l < "$out/reports.txt") report line(s) ($out/reports.txt, $out/console.txt)"
fi
echo "kunit-debug: $core: no KASAN/UBSAN/lockdep/debug-objects/list/kmemleak report"
