#!/bin/bash
# patches-check.sh: apply BUILD/patches/ with "git am" to a fresh pristine
# linux-source-$KERNEL tree and build and run the KUnit suites on it
# (KERNEL=6.1|6.12, BUILD = its build root: scripts/kernel-env.sh; the
# paths below are relative to it).
#
#  - build/patches-check/src is recreated on every run as a hard-link copy
#    of build/pristine/linux-source-6.1. The files the series modifies are
#    first replaced by private copies, so nothing is ever written through a
#    hard link into the pristine tree.
#  - The git repository lives in build/patches-check/git (GIT_DIR), outside
#    the tree, and tracks the pristine versions of the modified files: all
#    "git am" needs for the modified files, while the work tree is the full
#    pristine tree (a new file that already existed would fail the apply).
#    With no .git in the tree, setlocalversion adds nothing to the kernel
#    release.
#  - The applied tree must equal the tree of our core (build/src as
#    scripts/tree.sh makes it, switched to ours under the tree lock) in every
#    file our overlay writes, i.e. the series is exactly what "make kunit"
#    tests.
#  - The build is kunit.py run with the series' own
#    drivers/hwmon/tests/.kunitconfig into build/patches-check/kunit. That
#    directory is kept between runs (kbuild rebuilds what the fresh tree
#    changed).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
jobs=${JOBS:-$(nproc)}
series=$build/patches
dir=$build/patches-check
src=$dir/src

die() { echo "patches-check: $*" >&2; exit 1; }

apply_only=0
case "${1:-}" in
"") ;;
--apply-only) apply_only=1 ;;	# stop before the build
*) die "usage: patches-check.sh [--apply-only]" ;;
esac

[ -f "$build/pristine/.unpacked" ] || die "$pristine missing (run 'make tree')"
ls "$series"/*.patch > /dev/null 2>&1 || die "no patches in $series (run 'make patches')"
mkdir -p "$dir"
exec 9> "$dir/lock"
flock 9

start=$SECONDS
rm -rf "$src" "$dir/git"
cp -al "$pristine" "$src"
# Directories are not hard links: make drivers/hwmon writable (the pristine
# copy is read-only there) so that git can add drivers/hwmon/tests.
find "$src/drivers/hwmon" -type d -exec chmod u+w {} +

export GIT_DIR=$dir/git GIT_WORK_TREE=$src
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=patches-check GIT_AUTHOR_EMAIL=patches-check@example.invalid
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
git init -q
modified=$(sed -n 's|^--- a/\([^[:space:]]*\).*|\1|p' "$series"/*.patch | sort -u)
for f in $modified; do
	[ -f "$pristine/$f" ] || die "the series modifies $f, which linux-source-$kernel does not have"
	cp --remove-destination "$pristine/$f" "$src/$f"
	chmod u+w "$src/$f"
	git add -f -- "$f"
done
git commit -q --allow-empty -m "linux-source-$kernel"
base=$(git rev-parse HEAD)

echo "patches-check: git am $series/*.patch"
if ! (cd "$src" && git am -q --whitespace=error-all "$series"/*.patch); then
	git am --show-current-patch=diff 2>/dev/null | head -20 >&2 || true
	die "the series does not apply to linux-source-$kernel (state in $dir)"
fi
n=$(git rev-list --count "$base..HEAD")
[ "$n" -eq "$(ls "$series"/*.patch | wc -l)" ] || die "git am applied $n commits, expected one per patch"
git log --reverse --format='  %s' "$base..HEAD"

# The applied tree must be what scripts/tree.sh makes of our core.
(
	tree_lock
	"$top/scripts/tree.sh" ours > /dev/null
	bad=0
	while IFS= read -r rel; do
		cmp -s "$src/$rel" "$tree/$rel" || { echo "patches-check: $rel differs from $tree/$rel" >&2; bad=1; }
	done < "$build/overlay.list"
	while IFS= read -r rel; do
		[ "$rel" = drivers/hwmon/tests/.kunitconfig ] && continue
		grep -qxF "$rel" "$build/overlay.list" ||
			{ echo "patches-check: the series changes $rel, which scripts/tree.sh does not" >&2; bad=1; }
	done < <(git diff --name-only "$base" HEAD)
	[ "$bad" -eq 0 ] || die "the series does not reproduce the tree of our core (run 'make patches')"
	echo "patches-check: applied tree equals the tree of our core in all $(wc -l < "$build/overlay.list") overlaid files ($((SECONDS - start)) s)"
)
cmp -s "$src/drivers/hwmon/tests/.kunitconfig" "$top/.kunitconfig" ||
	die "drivers/hwmon/tests/.kunitconfig differs from .kunitconfig"

unset GIT_DIR GIT_WORK_TREE
[ "$apply_only" -eq 0 ] || exit 0
mkdir -p "$dir/kunit"
echo "patches-check: kunit.py run (log: $dir/kunit.log)"
if ! (cd "$src" && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
	--kunitconfig=drivers/hwmon/tests --build_dir="$dir/kunit" --jobs="$jobs") > "$dir/kunit.log" 2>&1; then
	tail -40 "$dir/kunit.log" >&2
	die "the patched tree does not build or its KUnit suites fail (log: $dir/kunit.log)"
fi
grep -E '^\[[0-9:]+\] (Testing complete|Elapsed time)' "$dir/kunit.log" | sed 's/^/  /' || true
echo "patches-check: OK: the series applies with git am, builds and passes KUnit ($((SECONDS - start)) s)"
