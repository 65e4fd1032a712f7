#!/bin/bash
# tree.sh CORE: make BUILD/src, the one Linux source tree of linux-source-
# $KERNEL (KERNEL=6.1 or 6.12, see kernel-env.sh; BUILD is build/ for 6.1
# and build/6.12/ for 6.12), the tree of CORE (stock or ours). Every kernel
# of the tree builds from it, switched from one core to the other, so that
# a build directory recompiles only what the switch changed.
#
#  - The tarball is unpacked once into BUILD/pristine/ and never modified.
#  - BUILD/src is a hard-link copy of it (cheap), onto which we overlay
#    (P = kernel/patches/$KERNEL):
#      both cores: kunit/*                  -> drivers/hwmon/tests/
#                  P/common/*.patch
#      ours:       kernel/drivers/**        -> drivers/**
#                  P/ours/*.patch
#  - An overlaid file is replaced (never written through the hard link) only
#    when its content changed, so kbuild rebuilds just what was edited or
#    what the switch changed.
#  - Files overlaid by an earlier run but no longer wanted are restored from
#    the pristine tree (or deleted if the pristine tree lacks them).
#  - "tree.sh pristine" only unpacks the tarball.
#  - The caller holds BUILD/tree.lock (tree_lock in kernel-env.sh) from the
#    switch until it no longer needs the tree as it left it.
set -euo pipefail

core=${1:?usage: tree.sh stock|ours|pristine}
case "$core" in stock|ours|pristine) ;; *) echo "tree.sh: unknown core '$core' (expected stock, ours or pristine)" >&2; exit 2 ;; esac

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
src=$tree

if [ ! -f "$build/pristine/.unpacked" ]; then
	[ -f "$tarball" ] || { echo "tree.sh: $tarball not found (run 'make deps')" >&2; exit 1; }
	echo "tree: unpacking $tarball"
	rm -rf "$build/pristine"
	mkdir -p "$build/pristine"
	tar -xJf "$tarball" -C "$build/pristine"
	chmod -R a-w "$pristine/drivers/hwmon" 2>/dev/null || true
	touch "$build/pristine/.unpacked"
fi

# tree.sh pristine: only the unpacked tarball (no lock needed).
[ "$core" != pristine ] || exit 0

if [ ! -f "$build/.linked" ]; then
	echo "tree: linking $src"
	rm -rf "$src" "$build/overlay.list"
	mkdir -p "$build"
	cp -al "$pristine" "$src"
	touch "$build/.linked"
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
declare -A want	# tree-relative path -> file holding the wanted content

add_dir() {	# add_dir REPO_DIR TREE_DIR
	local f rel
	[ -d "$1" ] || return 0
	while IFS= read -r -d '' f; do
		rel=${f#"$1"/}
		want["$2/$rel"]=$f
	done < <(find "$1" -type f ! -name '*.orig' ! -name '*~' -print0)
}

add_patches() {	# add_patches DIR: apply DIR/*.patch to scratch copies
	local p f
	for p in "$1"/*.patch; do
		[ -e "$p" ] || continue
		for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
			if [ ! -e "$scratch/t/$f" ] && [ -e "$pristine/$f" ]; then
				mkdir -p "$scratch/t/$(dirname "$f")"
				cp "$pristine/$f" "$scratch/t/$f"
			fi
			want["$f"]=$scratch/t/$f
		done
		if ! patch -s -p1 -d "$scratch/t" --no-backup-if-mismatch < "$p"; then
			echo "tree.sh: $p does not apply to linux-source-$kernel" >&2
			exit 1
		fi
	done
}

mkdir -p "$scratch/t"
add_dir "$top/kunit" drivers/hwmon/tests
add_patches "$patchdir/common"
if [ "$core" != stock ]; then
	add_dir "$top/kernel/drivers" drivers
	add_patches "$patchdir/ours"
fi
manifest=$build/overlay.list
changed=0
for rel in "${!want[@]}"; do
	if ! cmp -s "${want[$rel]}" "$src/$rel"; then
		mkdir -p "$src/$(dirname "$rel")"
		cp --remove-destination "${want[$rel]}" "$src/$rel"
		changed=$((changed + 1))
	fi
done

if [ -f "$manifest" ]; then
	while IFS= read -r rel; do
		[ -n "${want[$rel]+x}" ] && continue
		rm -f "$src/$rel"
		if [ -e "$pristine/$rel" ]; then
			cp "$pristine/$rel" "$src/$rel"
		fi
		changed=$((changed + 1))
	done < "$manifest"
fi
printf '%s\n' "${!want[@]}" | sort > "$manifest"
echo "$core" > "$build/tree.core"
echo "tree: $src is the $core tree ($changed file(s) changed)"
