# Sourced by the kernel scripts (after they set $top): which Linux tree they
# work on and where its files live.
#
#   KERNEL    6.1 (default) or 6.12: Debian's linux-source-$KERNEL
#   BUILD     the build root of that tree: build/ for 6.1, build/6.12/ for
#             6.12 (the top Makefile passes it; this is the default)
#
# Sets: kernel, build, tarball, pristine (the unpacked tarball), tree (the
# one source tree, switched between the cores by scripts/tree.sh) and
# patchdir (kernel/patches/$kernel: common/ and ours/ patch series); and
# tree_lock, which takes BUILD/tree.lock on fd 9 for the rest of the
# calling script (whoever switches the tree or builds from it holds it).
# Every tree has the same layout under its build root (pristine/, src/,
# kernel/, images/, ...), so the compiler command lines, which ccache sees
# relative to build/ (CCACHE_BASEDIR), are the same for any checkout
# location.

kernel=${KERNEL:-6.1}
case "$kernel" in
6.1|6.12) ;;
*) echo "${0##*/}: KERNEL must be 6.1 or 6.12, not '$kernel'" >&2; exit 2 ;;
esac
if [ -z "${BUILD:-}" ]; then
	if [ "$kernel" = 6.1 ]; then
		BUILD=$top/build
	else
		BUILD=$top/build/$kernel
	fi
fi
build=$BUILD
tarball=${KSRC_TAR:-/usr/src/linux-source-$kernel.tar.xz}
pristine=$build/pristine/linux-source-$kernel
tree=$build/src
patchdir=$top/kernel/patches/$kernel

tree_lock() {
	mkdir -p "$build"
	exec 9>"$build/tree.lock"
	flock 9
}
