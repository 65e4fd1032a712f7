#!/bin/bash
# kernel.sh CORE: configure and build the e2e kernel of CORE (ours|stock)
# from build/CORE/src into build/CORE/e2e: allnoconfig for ARCH=x86_64 plus
# e2e/kernel.config. The build directory sits next to build/CORE/kunit so
# that, with CCACHE_BASEDIR=build, both cores compile with identical
# command lines and share ccache entries. .config is rewritten only when
# its content changes, so a rebuild with nothing changed is quick.
set -euo pipefail

core=${1:?usage: kernel.sh ours|stock}
case "$core" in ours|stock) ;; *) echo "kernel.sh: unknown core '$core' (expected ours or stock)" >&2; exit 2 ;; esac

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
src=$build/$core/src
out=$build/$core/e2e
frag=$top/e2e/kernel.config
jobs=${JOBS:-$(nproc)}

[ -f "$src/Makefile" ] || { echo "kernel.sh: $src is not a kernel tree (run 'make tree-$core')" >&2; exit 1; }
mkdir -p "$out"
exec 9>"$build/$core/e2e.lock"
flock 9

kmake() { make -s -C "$src" O="$out" ARCH=x86_64 "$@"; }

kmake KCONFIG_CONFIG=.config.new KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null
# Every symbol the fragment sets must have survived the dependency checks.
lineno=0
bad=0
while IFS= read -r line; do
	lineno=$((lineno + 1))
	case "$line" in ''|'#'*) continue ;; esac
	if ! grep -qxF "$line" "$out/.config.new"; then
		sym=${line%%=*}
		echo "kernel.sh: $frag:$lineno: '$line' did not take effect (.config has: $(grep -E "^$sym=|^# $sym is not set" "$out/.config.new" || echo nothing)); check its dependencies" >&2
		bad=1
	fi
done < "$frag"
[ "$bad" = 0 ] || exit 1
if cmp -s "$out/.config.new" "$out/.config"; then
	rm -f "$out/.config.new"
else
	mv -f "$out/.config.new" "$out/.config"
fi

echo "e2e: building the $core kernel in $out"
kmake -j"$jobs" bzImage
