#!/bin/bash
# boot.sh CORE: boot the e2e kernel of CORE (ours|stock) with the e2e
# initramfs in QEMU (TCG) with an emulated NVMe controller, and extract the
# guest's dump into build/e2e/CORE/dump.txt. The kernel log is kept in
# build/e2e/CORE/console.log. Fails if the guest did not finish the dump or
# the kernel log shows a warning, oops or panic.
set -euo pipefail

core=${1:?usage: boot.sh ours|stock}
case "$core" in ours|stock) ;; *) echo "boot.sh: unknown core '$core' (expected ours or stock)" >&2; exit 2 ;; esac

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
kernel=$build/$core/e2e/arch/x86/boot/bzImage
initrd=$build/e2e/initramfs.cpio
run=$build/e2e/$core
timeout=${E2E_TIMEOUT:-300}

for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "boot.sh: $f not found (run 'make e2e')" >&2; exit 1; }
done
mkdir -p "$run"
exec 9>"$run.lock"
flock 9
rm -f "$run/console.log" "$run/serial1.raw" "$run/dump.txt"
# A fresh, empty backing image for the NVMe namespace on every boot.
rm -f "$run/nvme.img"
truncate -s 4M "$run/nvme.img"

rc=0
timeout "$timeout" qemu-system-x86_64 \
	-accel tcg -m 256M -smp 1 \
	-nographic -no-reboot -monitor none \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1" \
	-serial "file:$run/console.log" -serial "file:$run/serial1.raw" \
	-drive "file=$run/nvme.img,if=none,id=nvm,format=raw" \
	-device nvme,serial=e2e0001,drive=nvm \
	</dev/null >"$run/qemu.log" 2>&1 || rc=$?

fail() {
	echo "boot.sh: $core: $*" >&2
	echo "--- last lines of $run/console.log:" >&2
	tail -n 20 "$run/console.log" >&2 || true
	exit 1
}
[ "$rc" != 124 ] || fail "QEMU did not power off within ${timeout}s"
[ "$rc" = 0 ] || fail "QEMU exited with status $rc ($(head -c 500 "$run/qemu.log"))"

tr -d '\r' < "$run/serial1.raw" |
	sed -n '/^@@E2E-BEGIN@@$/,/^@@E2E-END@@$/p' > "$run/dump.txt"
grep -qx '@@E2E-BEGIN@@' "$run/dump.txt" || fail "no @@E2E-BEGIN@@ in the guest output ($run/serial1.raw)"
grep -qx '@@E2E-END@@' "$run/dump.txt" || fail "the guest output ($run/serial1.raw) stops before @@E2E-END@@"

if grep -nE 'WARNING:|BUG:|Oops|Call Trace|Kernel panic|general protection' "$run/console.log" >&2; then
	fail "the kernel log shows a warning, oops or panic (lines above)"
fi
echo "e2e: $core: booted, $(wc -l < "$run/dump.txt") dump lines in $run/dump.txt"
