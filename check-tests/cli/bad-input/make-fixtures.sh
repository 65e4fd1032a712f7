#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fixtures of the hostile-input corpus that are binaries or too big to
# commit, made by `make check-cli` (see README.md here):
#
#   make-fixtures.sh OUT GOLDEN GOLDEN_S CC
#
# OUT: output directory; GOLDEN: the built golden program; GOLDEN_S: its
# source; CC: the compiler that built it.
set -eu

out=$1
golden=$2
src=$3
cc=$4

mkdir -p "$out"

# Binaries: empty, cut after the ELF header, cut in half, an object file
# (ET_REL), a 32-bit executable, golden with e_machine set to 40 (ARM),
# golden stripped of its symbol table, and one with a 400-character
# function name (same layout as golden: names do not move code).
: > "$out/empty-binary"
head -c 64 "$golden" > "$out/elf-header-only"
size=$(wc -c < "$golden")
head -c $((size / 2)) "$golden" > "$out/elf-half"
$cc -c -o "$out/golden.o" "$src"
$cc -m32 -nostdlib -static -no-pie -Wl,--build-id=none -o "$out/golden-32" \
	"$src"
cp "$golden" "$out/golden-arm"
printf '\050\000' | dd of="$out/golden-arm" bs=1 seek=18 conv=notrunc \
	status=none
strip -o "$out/golden-stripped" "$golden"
# golden as a core file (e_type 4); golden with no executable PT_LOAD
# (PF_X cleared in every program header); golden whose executable section
# says it lies past the end of the file.
cp "$golden" "$out/golden-core"
printf '\004\000' | dd of="$out/golden-core" bs=1 seek=16 conv=notrunc \
	status=none
python3 - "$golden" "$out" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
phoff, shoff = struct.unpack_from('<QQ', b, 32)
phentsize, phnum, shentsize, shnum = struct.unpack_from('<HHHH', b, 54)
nox = bytearray(b)
for i in range(phnum):
    at = phoff + i * phentsize
    flags = struct.unpack_from('<I', nox, at + 4)[0]
    struct.pack_into('<I', nox, at + 4, flags & ~1)
open(sys.argv[2] + '/golden-noexec', 'wb').write(nox)
for i in range(shnum):
    at = shoff + i * shentsize
    if struct.unpack_from('<Q', b, at + 8)[0] & 4:     # SHF_EXECINSTR
        struct.pack_into('<Q', b, at + 24, 0x7fffffff)  # sh_offset
        break
open(sys.argv[2] + '/golden-section-out', 'wb').write(b)
PY
long=leaf_$(printf '%0400d' 0 | tr 0 x)
sed "s/\<leaf\>/$long/g" "$src" > "$out/longsym.S"
$cc -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-Ttext=0x401000 \
	-o "$out/longsym" "$out/longsym.S"

# Lines of over 1 MB, between two good samples.
g1='cycles:u:           40102c 0x40102c/0x401015/P/-/-/3  0x40102f/0x40102a/P/-/-/1  0x401025/0x40102f/P/-/-/2'
g2='cycles:u:           40101b 0x40101b/0x401022/P/-/-/4  0x40102c/0x401015/P/-/-/3  0x40102f/0x40102a/M/-/-/1'
entries() {
	yes '0x40102c/0x401015/P/-/-/3' | head -n 41000 | tr '\n' ' '
}
{
	echo "$g1"
	printf 'cycles:u:           40102c '
	head -c 1048576 /dev/zero | tr '\0' A
	echo
	echo "$g2"
} > "$out/long-garbage.perfscript"
{
	echo "$g1"
	printf 'cycles:u:           40102c '
	entries
	echo '0x40102c/0x401015/P/-/-/70000'
	echo "$g2"
} > "$out/long-entries.perfscript"
{
	printf 'cycles:u:           40102c '
	entries
	echo
} > "$out/long-valid.perfscript"
