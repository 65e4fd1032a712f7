#!/bin/sh
# setup.sh BIN OUT: the layouts the lookup tests annotate BIN from.
#   OUT/ref/NAME                   BIN as built (with .symtab and DWARF)
#   OUT/stripped/NAME              strip --strip-all (no .symtab, no DWARF)
#   OUT/debugdir/.build-id/xx/rest.debug   objcopy --only-keep-debug
#   OUT/linked/NAME + NAME.debug   stripped with a .gnu_debuglink to NAME.debug
#   OUT/cache/.build-id/xx/rest/{elf,debug}  perf's build-id cache layout
#   OUT/served/NAME.debug          what the debuginfod test serves
#   OUT/buildid                    the build-id in hex
set -eu
bin=$1
out=$2
name=$(basename "$bin")
rm -rf "$out"
mkdir -p "$out/ref" "$out/stripped" "$out/linked" "$out/served"
cp "$bin" "$out/ref/$name"
id=$(readelf -n "$bin" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || { echo "setup.sh: $bin has no build-id" >&2; exit 1; }
echo "$id" > "$out/buildid"
pre=$(echo "$id" | cut -c1-2)
rest=$(echo "$id" | cut -c3-)
objcopy --only-keep-debug "$bin" "$out/served/$name.debug"
objcopy --strip-all "$bin" "$out/stripped/$name"
mkdir -p "$out/debugdir/.build-id/$pre"
cp "$out/served/$name.debug" "$out/debugdir/.build-id/$pre/$rest.debug"
cp "$out/served/$name.debug" "$out/linked/$name.debug"
objcopy --strip-all --add-gnu-debuglink="$out/linked/$name.debug" \
	"$bin" "$out/linked/$name"
mkdir -p "$out/cache/.build-id/$pre/$rest"
cp "$out/stripped/$name" "$out/cache/.build-id/$pre/$rest/elf"
cp "$out/served/$name.debug" "$out/cache/.build-id/$pre/$rest/debug"
