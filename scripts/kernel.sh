#!/bin/bash
# kernel.sh VARIANT...: build the test kernel of each VARIANT, in the order
# given, from the tree of KERNEL (6.1 or 6.12; BUILD is its build root, see
# kernel-env.sh), and keep it as BUILD/images/VARIANT/.
#
#   stock   the stock hwmon core
#   ours    our core (kernel/drivers/hwmon/hwmon.c and its patches)
#   newer   our core with CONFIG_HWMON_NEWER_API (kunit/newer-api.kunitconfig)
#
# Every variant builds in the same directory, BUILD/kernel, from the same
# tree, BUILD/src (scripts/tree.sh switches it to the variant's core): the
# configuration is x86_64 allnoconfig plus kunit/guest.config, .kunitconfig
# and kunit/debug.kunitconfig, so going from one variant to the next
# recompiles only the files that include what the switch changed
# (<linux/hwmon.h>, hwmon.c, the option) and links again. drivers/hwmon/
# hwmon.o is compiled with gcov's instrumentation (GCOV_PROFILE_hwmon.o).
#
# BUILD/images/VARIANT/ gets bzImage and config; for our core also gcov/:
# obj/drivers/hwmon/hwmon.gcno and src/drivers/hwmon/hwmon.c, the source it
# was compiled from (scripts/kernel-coverage.sh reads them). The copy is
# replaced as a whole (rename), so a guest that boots the previous image
# keeps it.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
jobs=${JOBS:-$(nproc)}
out=$build/kernel

[ $# -ge 1 ] || { echo "usage: kernel.sh stock|ours|newer..." >&2; exit 2; }
for v in "$@"; do
	case "$v" in stock|ours|newer) ;; *) echo "kernel.sh: unknown variant '$v' (expected stock, ours or newer)" >&2; exit 2 ;; esac
done

kmake() { make -s -C "$tree" O="$out" ARCH=x86_64 "$@"; }

# configure FRAGMENT...: allnoconfig plus the fragments; every line of them
# must have survived the dependency checks. .config is rewritten only when
# its content changes, so a rebuild with nothing changed is quick.
configure() {
	local f lineno line sym bad=0

	cat "$@" > "$out/config.fragment"
	kmake KCONFIG_CONFIG=.config.new KCONFIG_ALLCONFIG="$out/config.fragment" \
		allnoconfig > "$out/config.log" 2>&1 ||
		{ cat "$out/config.log" >&2; echo "kernel.sh: allnoconfig failed (log above)" >&2; exit 1; }
	for f in "$@"; do
		lineno=0
		while IFS= read -r line; do
			lineno=$((lineno + 1))
			case "$line" in ''|'#'*) continue ;; esac
			if ! grep -qxF "$line" "$out/.config.new"; then
				sym=${line%%=*}
				echo "kernel.sh: $f:$lineno: '$line' did not take effect (.config has: $(grep -E "^$sym=|^# $sym is not set" "$out/.config.new" || echo nothing)); check its dependencies" >&2
				bad=1
			fi
		done < "$f"
	done
	[ "$bad" = 0 ] || exit 1
	if cmp -s "$out/.config.new" "$out/.config"; then
		rm -f "$out/.config.new"
	else
		mv -f "$out/.config.new" "$out/.config"
	fi
}

# keep VARIANT: copy the image (and for our core the coverage notes) to
# BUILD/images/VARIANT.
keep() {
	local v=$1 stage dst=$build/images/$1 rel

	mkdir -p "$build/images"
	stage=$(mktemp -d "$build/images/.$v.XXXXXX")
	cp "$out/arch/x86/boot/bzImage" "$stage/bzImage"
	cp "$out/.config" "$stage/config"
	if [ "$v" != stock ]; then
		rel=drivers/hwmon
		[ -f "$out/$rel/hwmon.gcno" ] || { echo "kernel.sh: $out/$rel/hwmon.gcno missing: hwmon.o was not built with gcov" >&2; exit 1; }
		mkdir -p "$stage/gcov/obj/$rel" "$stage/gcov/src/$rel"
		cp "$out/$rel/hwmon.gcno" "$stage/gcov/obj/$rel/"
		cp "$tree/$rel/hwmon.c" "$stage/gcov/src/$rel/"
	fi
	rm -rf "$dst.old"
	[ -d "$dst" ] && mv "$dst" "$dst.old"
	mv "$stage" "$dst"
	rm -rf "$dst.old"
}

mkdir -p "$out"
tree_lock
for v in "$@"; do
	start=$SECONDS
	core=$v
	[ "$v" = newer ] && core=ours
	"$top/scripts/tree.sh" "$core"
	frags=("$top/kunit/guest.config" "$top/.kunitconfig" "$top/kunit/debug.kunitconfig")
	[ "$v" = newer ] && frags+=("$top/kunit/newer-api.kunitconfig")
	configure "${frags[@]}"
	echo "kernel: building the $v kernel of linux-source-$kernel in $out"
	kmake -j"$jobs" GCOV_PROFILE_hwmon.o=y bzImage
	keep "$v"
	echo "kernel: $v kernel in $build/images/$v ($((SECONDS - start)) s)"
done
