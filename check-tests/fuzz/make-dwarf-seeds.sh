#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The seeds of the ELF/DWARF harness (fuzz_dwarf.c): dwarf-seed.c built by
# gcc and clang with DWARF 4 and 5, static, without libc, with tiny page
# alignment (a few KiB each); one with compressed debug sections and one
# separate debug file (objcopy --only-keep-debug).
#
#   make-dwarf-seeds.sh OUTDIR
set -eu
out=$1
src=$(dirname "$0")/dwarf-seed.c
flags="-O1 -nostdlib -static -fno-asynchronous-unwind-tables
	-Wl,--build-id=none -Wl,-z,max-page-size=16 -Wl,-z,common-page-size=16
	-Wl,-z,noseparate-code -Wl,-z,norelro"
mkdir -p "$out"
for cc in gcc clang; do
	for v in 4 5; do
		# shellcheck disable=SC2086
		$cc -g -gdwarf-$v $flags -o "$out/$cc-dwarf$v" "$src"
		objcopy --remove-section .comment "$out/$cc-dwarf$v"
	done
done
# shellcheck disable=SC2086
gcc -g -gdwarf-5 -gz=zlib $flags -O2 -o "$out/gcc-dwarf5-zlib" "$src"
objcopy --remove-section .comment "$out/gcc-dwarf5-zlib"
objcopy --only-keep-debug "$out/gcc-dwarf4" "$out/gcc-dwarf4-debug"
