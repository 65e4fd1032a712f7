#!/bin/bash
# patches.sh: write our kernel changes as a git format-patch series against
# the pristine Debian linux-source-$KERNEL tree into BUILD/patches/
# (KERNEL=6.1|6.12, BUILD = its build root: scripts/kernel-env.sh).
#
# Series (in this order, so that every step builds):
#   1. kunit/*                  -> drivers/hwmon/tests/ (+ .kunitconfig there)
#   2. kernel/patches/$KERNEL/common/*  the kbuild hook of drivers/hwmon/tests/
#   3. kernel/drivers/**        -> drivers/** (our hwmon core)
#   4. kernel/patches/$KERNEL/ours/*    if any
# After 1-2 the tree is what scripts/tree.sh makes of the stock core, after
# all of them what it makes of ours.
#
# The commits are made in a scratch repository, build/patches-work/repo,
# that holds only the pristine files the series modifies (format-patch needs
# nothing else; the index lines of the patches name the pristine blobs, so
# the series applies to any checkout of the full tree). Author and dates are
# fixed, so the same inputs give byte-identical patches; build/patches/ is
# rewritten only when the series changed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
out=$build/patches
work=$build/patches-work
repo=$work/repo

die() { echo "patches: $*" >&2; exit 1; }

[ -f "$build/pristine/.unpacked" ] && [ -d "$pristine/drivers/hwmon" ] ||
	die "$pristine missing (run 'make tree' first)"

# Identity: PATCH_AUTHOR="Name <email>", else the repository's git identity
# (read only), else the project's.
author=${PATCH_AUTHOR:-}
if [ -z "$author" ]; then
	name=$(git -C "$top" config user.name 2>/dev/null || true)
	email=$(git -C "$top" config user.email 2>/dev/null || true)
	if [ -n "$name" ] && [ -n "$email" ]; then
		author="$name <$email>"
	else
		author="hwmon core project <hwmon@example.invalid>"
	fi
fi
[[ $author =~ ^([^<]+[^<[:space:]])[[:space:]]*\<([^>]+)\>$ ]] ||
	die "PATCH_AUTHOR '$author' is not of the form 'Name <email>'"
export GIT_AUTHOR_NAME=${BASH_REMATCH[1]} GIT_AUTHOR_EMAIL=${BASH_REMATCH[2]}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
# Date: that of the project's last commit (fixed for a given checkout).
date=$(git -C "$top" log -1 --format=%ad --date=raw 2>/dev/null || echo "1700000000 +0000")
export GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date
# Nothing from the user's or the system's git configuration.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
sob="Signed-off-by: $author"

g() { git -C "$repo" "$@"; }

commit() {	# commit MESSAGE_FILE: commit the index, appending the sign-off
	local msg=$1
	g diff --cached --quiet && die "internal: nothing to commit for '$(head -1 "$msg")'"
	grep -qxF "$sob" "$msg" || printf '\n%s\n' "$sob" >> "$msg"
	g commit -q --no-verify --cleanup=verbatim -F "$msg"
}

wrap() { fmt -w 72; }
bullet() { fmt -w 70 | sed '1s/^/- /; 1!s/^/  /'; }	# stdin as one "- " item

# patch_paths PATCH: the pristine files a patch modifies or deletes
patch_paths() { sed -n 's|^--- a/\([^[:space:]]*\).*|\1|p' "$1"; }

# commit_patch PATCH: apply a mail-style patch file (From:/Subject: headers,
# body, "---", diff) and commit it with its own subject and body.
commit_patch() {
	local p=$1 subject msg=$work/msg
	subject=$(sed -n '/^$/q; s/^Subject:[[:space:]]*\(\[[^]]*\][[:space:]]*\)\{0,1\}//p' "$p")
	[ -n "$subject" ] || die "$p: no 'Subject:' header before the first empty line"
	{
		echo "$subject"
		echo
		# body: after the headers' empty line, up to the "---" line
		sed -n '1,/^$/d; /^---$/q; /^diff --git /q; p' "$p" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
	} > "$msg"
	git -C "$repo" apply --index --whitespace=error-all "$p" ||
		die "$p does not apply to linux-source-$kernel"
	commit "$msg"
}

# describe FILE: one line on what a file of kunit/ is, from its header comment
describe() {
	local f=$1 d
	case "${f##*/}" in
	Kconfig) echo "Kconfig symbols of the suites and test drivers."; return ;;
	Makefile) echo "kbuild rules."; return ;;
	.kunitconfig) echo "configuration for kunit.py run --kunitconfig=drivers/hwmon/tests."; return ;;
	debug.kunitconfig) echo "additions for a debug kernel (KASAN, UBSAN, lockdep, debug objects, kmemleak)."; return ;;
	esac
	# the first sentence of the first paragraph of the first /* ... */
	# comment after the SPDX line
	d=$(awk 'NR > 1 && /^\/\*/ { on = 1; next }
		 on && (/^ \*\// || /^ \*$/) { exit }
		 on { sub(/^ \* ?/, ""); printf "%s ", $0 }' "$f" |
		sed 's/  */ /g; s/^ //; s/\([.]\) .*/\1/; s/ $//')
	[ -n "$d" ] || die "$f: no header comment to describe the file with"
	echo "$d"
}

rm -rf "$work"
mkdir -p "$repo"
g init -q
g config core.autocrlf false
g config commit.gpgsign false

# --- base: the pristine files the series touches -----------------------------
declare -A base=()
for p in "$patchdir"/common/*.patch "$patchdir"/ours/*.patch; do
	[ -e "$p" ] || continue
	for f in $(patch_paths "$p"); do base[$f]=1; done
done
while IFS= read -r -d '' f; do
	rel=drivers/${f#"$top"/kernel/drivers/}
	[ -e "$pristine/$rel" ] && base[$rel]=1
done < <(find "$top/kernel/drivers" -type f ! -name '*.orig' ! -name '*~' -print0)
for rel in "${!base[@]}"; do
	[ -f "$pristine/$rel" ] || die "$rel is modified by the series but not in linux-source-$kernel"
	mkdir -p "$repo/$(dirname "$rel")"
	cp "$pristine/$rel" "$repo/$rel"	# a copy: never a hard link into pristine
	chmod u+w "$repo/$rel"
done
g add -A
g commit -q -m "linux-source-$kernel (pristine files touched by the series)"
base_commit=$(g rev-parse HEAD)

# --- 1. the KUnit suites -------------------------------------------------------
tests=$repo/drivers/hwmon/tests
mkdir -p "$tests"
files=()
while IFS= read -r -d '' f; do
	cp "$f" "$tests/"
	files+=("${f##*/}")
done < <(find "$top/kunit" -maxdepth 1 -type f ! -name '*.orig' ! -name '*~' -print0 | sort -z)
[ ${#files[@]} -gt 0 ] || die "$top/kunit is empty"
[ -f "$top/.kunitconfig" ] || die "$top/.kunitconfig missing"
cp "$top/.kunitconfig" "$tests/.kunitconfig"
files+=(.kunitconfig)
g add -A
{
	echo "hwmon: add KUnit suites for the hwmon core"
	echo
	wrap <<'EOF'
Add KUnit suites that test the hardware monitoring core through its
public API (include/linux/hwmon.h) and through the sysfs files it
creates, the way user space sees them. A fake chip describes channels of
every sensor type with every attribute bit; the suites register it with
each registration function, read and write the generated files through
a private sysfs mount, observe uevents on a kernel netlink socket, and
check that failed registrations unwind completely.
EOF
	echo
	wrap <<EOF
The suites look at the core only from the outside, so they run unchanged
on any implementation of the $kernel API. They are the conformance test
between the current core and the replacement later in this series; the
two cases that cover its intended differences detect the core they run
on by behaviour and skip with the reason on the current one.
EOF
	echo
	echo "Files in drivers/hwmon/tests/:"
	for f in "${files[@]}"; do
		printf '%s: %s\n' "$f" "$(describe "$tests/$f")" | bullet
	done
	echo
	echo "Run them with"
	echo
	echo "  ./tools/testing/kunit/kunit.py run --arch=x86_64 \\"
	echo "	--kunitconfig=drivers/hwmon/tests"
	echo
	echo "once the next patch has hooked the directory into kbuild."
} > "$work/msg"
commit "$work/msg"

# --- 2. the kbuild hook ----------------------------------------------------------
n=0
for p in "$patchdir"/common/*.patch; do
	[ -e "$p" ] || continue
	commit_patch "$p"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no hook patch in $patchdir/common/"

# --- 3. our core -------------------------------------------------------------------
core=kernel/drivers/hwmon/hwmon.c
[ -f "$top/$core" ] || die "$top/$core missing"
while IFS= read -r -d '' f; do
	rel=drivers/${f#"$top"/kernel/drivers/}
	mkdir -p "$repo/$(dirname "$rel")"
	cp "$f" "$repo/$rel"
done < <(find "$top/kernel/drivers" -type f ! -name '*.orig' ! -name '*~' -print0)
g add -A
design=$(awk '/^ \* Design:/ { on = 1; next } on && /^ \*\// { exit } on { sub(/^ \* ?/, ""); print }' "$top/$core")
[ -n "$design" ] || die "$top/$core: no 'Design:' paragraph in the header comment"
exports=$(sed -n 's/^EXPORT_SYMBOL\(_NS\)\{0,1\}\(_GPL\)\{0,1\}(\([a-z0-9_]*\)[,)].*/\3/p' "$top/$core" | sort | paste -sd' ')
[ -n "$exports" ] || die "$top/$core exports nothing"
{
	echo "hwmon: replace the registration core with a clean-room implementation"
	echo
	wrap <<EOF
Replace drivers/hwmon/hwmon.c with a new implementation of the $kernel hwmon
core API. It was written from include/linux/hwmon.h,
Documentation/hwmon/hwmon-kernel-api.rst, Documentation/hwmon/sysfs-interface.rst
and Documentation/ABI/testing/sysfs-class-hwmon, without reference to the
previous implementation. The exported interface is unchanged, so every
in-tree hwmon driver builds and links against it (checked by building all
of drivers/hwmon as modules with COMPILE_TEST on x86_64), and the KUnit
suites added earlier in this series pass on both the old and the new core.
EOF
	echo
	echo "Design:"
	echo "$design"
	echo
	if [ "$kernel" = 6.1 ]; then
		echo "Two behaviours differ from the previous core on purpose:"
		echo
		bullet <<'EOF'
devm_hwmon_device_unregister() unregisters the device at once and
releases the devres action on the parent. The previous core looked the
devres up with the wrong pointer, warned and left the device registered
until the parent went away.
EOF
	else
		echo "One behaviour differs from the previous core on purpose:"
		echo
	fi
	bullet <<'EOF'
HWMON_P_AVERAGE_INTERVAL_MAX and HWMON_P_AVERAGE_INTERVAL_MIN create
powerN_average_interval_max and powerN_average_interval_min, the names
in Documentation/ABI/testing/sysfs-class-hwmon and sysfs-interface.rst;
the previous core created powerN_interval_max and powerN_interval_min.
EOF
	echo
	echo "Exported symbols (unchanged):"
	echo "$exports" | fmt -w 70 | sed 's/^/  /'
} > "$work/msg"
commit "$work/msg"

# --- 4. further patches of our tree ---------------------------------------------
for p in "$patchdir"/ours/*.patch; do
	[ -e "$p" ] || continue
	commit_patch "$p"
done

# --- the series ------------------------------------------------------------------
new=$work/series
mkdir -p "$new"
g format-patch -q --no-signature -o "$new" "$base_commit..HEAD" > /dev/null
(cd "$new" && ls -- *.patch) > "$work/series.list"
mv "$work/series.list" "$new/series"
if [ -d "$out" ] && diff -r -q "$out" "$new" > /dev/null 2>&1; then
	echo "patches: $out up to date ($(grep -c . "$new/series") patches)"
else
	rm -rf "$out"
	mv "$new" "$out"
	echo "patches: wrote $out:"
fi
sed 's/^/  /' "$out/series"
