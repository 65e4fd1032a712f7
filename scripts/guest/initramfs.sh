#!/bin/bash
# initramfs.sh OUT: build the initramfs of every test guest (uncompressed
# cpio, newc) into OUT from Debian's busybox-static, lm-sensors' sensors
# with the shared libraries ldd lists for it, /etc/sensors3.conf,
# scripts/guest/init and e2e/dump.sh. OUT is replaced only when its content
# changed (its time stamp then tells make that the guest changed).
set -euo pipefail

out=${1:?usage: initramfs.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
busybox=/bin/busybox
sensors=/usr/bin/sensors
conf=/etc/sensors3.conf

for f in "$busybox" "$sensors" "$conf"; do
	[ -f "$f" ] || { echo "initramfs.sh: $f not found (run 'make deps')" >&2; exit 1; }
done
# Capture first: with pipefail, "busybox | grep -q" fails at random (grep
# exits at the first match and busybox dies of SIGPIPE).
banner=$("$busybox" 2>&1 || true)
case "$banner" in
*BusyBox*) ;;
*)	echo "initramfs.sh: $busybox is not busybox" >&2
	exit 1 ;;
esac
if ldd "$busybox" >/dev/null 2>&1; then
	echo "initramfs.sh: $busybox is dynamically linked (install busybox-static)" >&2
	exit 1
fi

mkdir -p "$(dirname "$out")"
stage=$(mktemp -d "$(dirname "$out")/initramfs.XXXXXX")
trap 'rm -rf "$stage" "$stage.cpio"' EXIT

mkdir -p "$stage"/{bin,dev,proc,sys,tmp,etc,e2e,usr/bin}
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$stage/bin/$applet"
done
cp "$sensors" "$stage/usr/bin/sensors"
# Every library the dynamic linker resolves for sensors, at the same path.
libs=$(ldd "$sensors" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
[ -n "$libs" ] || { echo "initramfs.sh: ldd found no libraries for $sensors" >&2; exit 1; }
for lib in $libs; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
cp "$conf" "$stage/etc/sensors3.conf"
install -m 0755 "$here/init" "$stage/init"
install -m 0755 "$top/e2e/dump.sh" "$stage/e2e/dump.sh"

# Sorted names, fixed owner and time: the archive depends on content only.
find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet --reproducible -o -H newc -R 0:0) > "$stage.cpio"
if cmp -s "$stage.cpio" "$out"; then
	rm -f "$stage.cpio"
else
	mv -f "$stage.cpio" "$out"
	echo "guest: initramfs $(du -h "$out" | cut -f1) -> $out"
fi
