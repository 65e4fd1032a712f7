#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The profile-guided loop on a real program of binutils 2.40, from Debian's
# binutils-source, built with clang-19: PGO_PROGRAM=readelf (the default)
# or objdump.  See docs/autofdo.md.
#
#   pgo-demo.sh OUT
#
#  objdump -d: libopcodes' x86 decoder, a large branchy switch-and-table
#  walk per instruction; readelf -wi: a DWARF walk bound by printf.
#
#  1. build the program (-O2 -g -fdebug-info-for-profiling, linked with
#     --emit-relocs for BOLT; objdump's libopcodes too): the base;
#  2. record a training run into perf.data with $PGO_RECORD: the program on
#     a copy of its own base binary (objdump -d: PGO_TRAIN_COPIES, 2 by
#     default; readelf -wi on clang-19's DWARF: 12 by default; about two
#     seconds of native work either way).  The default recorder is `blockrange record --engine=qemu` (sampled,
#     LBR-like: 32 branches every 10007 +- 2000 taken branches) when the
#     CLI has it; else the ptrace recorder on a small object file (the
#     inlines test program, gcc-12 -O2 -g), all it can single-step in
#     minutes;
#  3. AutoFDO: `blockrange autofdo` and llvm-profgen-19 on that perf.data,
#     the program (and libopcodes) rebuilt with -fprofile-sample-use= each profile;
#  4. BOLT: `blockrange bolt` -> perf2bolt -pa, and perf2bolt -p on the same
#     perf.data; llvm-bolt-19 on the base with each .fdata;
#  5. time the five binaries natively on another input (objdump -d on the
#     python3 executable, gcc-built, 5 MB of code; readelf -wi on glibc's
#     debug file from libc6-dbg, 4 MB of DWARF, or on the base binary
#     itself if it is not installed), PGO_RUNS alternated runs each
#     (the order rotates), after checking that they all print the same;
#     the speed-up of each is median(base) / median(it) of the CPU time
#     (user + sys, from wait4: less sensitive than wall time to the other
#     load of a shared machine).  PGO_TIME_ONLY=1 only redoes this step;
#     PGO_KEEP_RECORDING=1 keeps the base and the recording of a former run.
# Writes OUT/pgo.json and prints the table.
#
# Environment: BLOCKRANGE (required), PGO_PROGRAM, PGO_RECORD, PGO_RUNS (7), CLANG19,
# LLVM_PROFGEN, LLVM_BOLT, PERF2BOLT, PGO_TARBALL.
set -euo pipefail

out=${1:?usage: pgo-demo.sh OUT}
br=${BLOCKRANGE:?BLOCKRANGE must name the blockrange binary}
if [ -z "${PGO_RECORD:-}" ] && "$br" record --help 2>&1 | grep -q -- '--engine=qemu'; then
	PGO_RECORD="$br record --engine=qemu --depth 32 --period 10007 --jitter 2000"
fi
record=${PGO_RECORD:-"$br record --depth 32 --period 7"}
prog=${PGO_PROGRAM:-readelf}
case "$prog" in
objdump) opt=-d; copies=${PGO_TRAIN_COPIES:-2};;
readelf) opt=-wi; copies=${PGO_TRAIN_COPIES:-12};;
*) echo "pgo-demo: PGO_PROGRAM=$prog: expected objdump or readelf" >&2; exit 1;;
esac
runs=${PGO_RUNS:-7}
clang=${CLANG19:-clang-19}
profgen=${LLVM_PROFGEN:-llvm-profgen-19}
bolt=${LLVM_BOLT:-llvm-bolt-19}
perf2bolt=${PERF2BOLT:-/usr/lib/llvm-19/bin/perf2bolt}
tarball=${PGO_TARBALL:-/usr/src/binutils/binutils-2.40.tar.xz}
here=$(cd "$(dirname "$0")" && pwd)
cflags="-O2 -g -fdebug-info-for-profiling"
ldflags="-Wl,--emit-relocs"
bolt_opts=(-reorder-blocks=ext-tsp -reorder-functions=cdsort
	-split-functions -split-all-cold -dyno-stats)

say() { echo "pgo-demo: $*" >&2; }

[ -r "$tarball" ] || { say "$tarball not found (make deps installs binutils-source)"; exit 1; }
mkdir -p "$out/$prog"
top=$(cd "$out" && pwd)
out=$top/$prog		# this program's binaries, recording and results
src=$top/src/binutils-2.40
obj=$top/obj		# one configured tree for both programs

# 1. Configure once; the libraries the program links are built once (cold
#    code, never profiled), but for objdump's libopcodes (its hot decoder);
#    the program's own objects are rebuilt per variant.
if [ ! -x "$src/configure" ]; then
	say "unpacking $tarball"
	mkdir -p "$top/src"
	tar -C "$top/src" -xf "$tarball"
fi
if [ ! -f "$obj/configure.log" ]; then
	rm -rf "$obj"
	mkdir -p "$obj"
	say "configuring binutils"
	(cd "$obj" && "$src/configure" --disable-gdb --disable-gdbserver \
		--disable-sim --disable-gprofng --disable-gold --disable-ld \
		--disable-gas --disable-nls --disable-werror --with-system-zlib \
		--without-zstd --disable-debuginfod CC="$clang" \
		CFLAGS="$cflags" >"$obj/configure.log.tmp" 2>&1)
	mv "$obj/configure.log.tmp" "$obj/configure.log"
fi
if [ ! -f "$obj/.libs-done-$prog" ]; then
	say "building $prog's libraries (once)"
	make -C "$obj" -j"$(nproc)" all-libiberty all-libsframe configure-bfd \
		configure-libctf configure-binutils >"$obj/libs-$prog.log" 2>&1
	if [ "$prog" = readelf ]; then
		make -C "$obj/bfd" bfd.h >>"$obj/libs-$prog.log" 2>&1
		make -C "$obj/libctf" libctf-nobfd.la >>"$obj/libs-$prog.log" 2>&1
	else
		make -C "$obj" -j"$(nproc)" all-bfd all-opcodes all-libctf \
			>>"$obj/libs-$prog.log" 2>&1
	fi
	touch "$obj/.libs-done-$prog"
fi
objs=$(make -s -C "$obj/binutils" -f Makefile -f - pgo-print-objs \
	<<<"pgo-print-objs: ; @echo \$(${prog}_OBJECTS)")

build() {	# build NAME EXTRA-CFLAGS...
	local name=$1
	shift
	say "building $prog.$name"
	if [ "$prog" = objdump ]; then
		(cd "$obj/opcodes" && make clean && make -j"$(nproc)" \
			libopcodes.la CFLAGS="$cflags $*") \
			>"$out/build-$prog-$name.log" 2>&1 ||
			{ say "build of libopcodes for $prog.$name failed, see $out/build-$prog-$name.log"; exit 1; }
	fi
	(cd "$obj/binutils" && rm -f $objs "$prog" &&
	 make -j"$(nproc)" "$prog" CFLAGS="$cflags $*" LDFLAGS="$ldflags") \
		>>"$out/build-$prog-$name.log" 2>&1 ||
		{ say "build of $prog.$name failed, see $out/build-$prog-$name.log"; exit 1; }
	cp "$obj/binutils/$prog" "$out/$prog.$name"
}

if [ "${PGO_TIME_ONLY:-0}" != 1 ]; then
if [ "${PGO_KEEP_RECORDING:-0}" != 1 ] || [ ! -s "$out/train.data" ]; then
build base

# 2. The training run, on another input than the timed one: the program's
#    own base binary, clang-19 code and DWARF (a sampling recorder), or a
#    small gcc-12 object (the ptrace recorder, which single-steps).
case "$record" in
*ptrace*|*"--depth 32 --period 7")
	gcc-12 -O2 -g -c -o "$out/train.o" \
		"$here/../check-tests/cli/autofdo/inlines.c"
	train=("$opt" "$out/train.o")
	train_desc="$prog $opt train.o (inlines.c, gcc-12 -O2 -g)";;
*)
	# One process per file: readelf 2.40 given several files warns
	# ("loc_offset too big") on all but the first.
	cp "$out/$prog.base" "$out/train.elf"
	train=()
	train_desc="$copies runs of $prog $opt on a copy of $prog.base (clang-19 code, DWARF 5)";;
esac
echo "$train_desc" >"$out/train.desc"
echo "$record" >"$out/record.cmd"
say "recording the training run: $train_desc ($record)"
rm -f "$out/train.data" "$out/train.data.old"
if [ -n "${train[*]:-}" ]; then
	$record -o "$out/train.data" -- "$out/$prog.base" "${train[@]}" \
		>/dev/null 2>"$out/record.log"
else
	$record -o "$out/train.data" -- /bin/sh -c \
		'i=0; while [ $i -lt "$1" ]; do i=$((i + 1)); "$2" "$4" "$3" || exit; done' \
		sh "$copies" "$out/$prog.base" "$out/train.elf" "$opt" \
		>/dev/null 2>"$out/record.log"
fi
tail -n 1 "$out/record.log" >&2
fi

# 3. AutoFDO: our profile and llvm-profgen's of the same recording.
/usr/bin/time -f "%e s, %M KiB" -o "$out/autofdo.time" \
	"$br" autofdo -i "$out/train.data" --dso $prog.base \
	-o "$out/ours.afdo" 2>"$out/autofdo.log"
# llvm-profgen's --perfdata runs perf script itself and filters by the
# PIDs it finds; on a recording of several processes whose executable is
# mapped after the loader's first samples (the QEMU engine) it stops with
# "Invalid perf script input!".  Then it is given that text itself.
if ! /usr/bin/time -f "%e s, %M KiB" -o "$out/profgen.time" \
	"$profgen" --perfdata="$out/train.data" --binary="$out/$prog.base" \
	--output="$out/llvm.afdo" 2>"$out/profgen.log"; then
	say "llvm-profgen --perfdata failed ($(grep -m1 error: "$out/profgen.log")); giving it perf script's text"
	perf script -i "$out/train.data" -F ip,brstack --show-mmap-events \
		>"$out/train.script" 2>/dev/null
	/usr/bin/time -f "%e s, %M KiB (--perfscript)" -o "$out/profgen.time" \
		"$profgen" --perfscript="$out/train.script" \
		--binary="$out/$prog.base" --output="$out/llvm.afdo" \
		2>"$out/profgen.log"
	rm -f "$out/train.script"
fi
same_profile=no
cmp -s "$out/ours.afdo" "$out/llvm.afdo" && same_profile=yes
say "profiles: ours $(cat "$out/autofdo.time"), llvm-profgen $(cat "$out/profgen.time"); byte-identical: $same_profile"
tail -n 1 "$out/autofdo.log" >&2
build autofdo-ours "-fprofile-sample-use=$out/ours.afdo"
build autofdo-llvm "-fprofile-sample-use=$out/llvm.afdo"

# 4. BOLT: our pre-aggregated profile and perf2bolt's reading of perf.data.
"$br" bolt -i "$out/train.data" --dso $prog.base \
	-o "$out/train.preagg" 2>"$out/bolt.log"
"$perf2bolt" -pa -p "$out/train.preagg" -o "$out/ours.fdata" \
	"$out/$prog.base" >"$out/perf2bolt-pa.log" 2>&1
"$perf2bolt" -p "$out/train.data" -o "$out/perf2bolt.fdata" \
	"$out/$prog.base" >"$out/perf2bolt-p.log" 2>&1
same_fdata=no
cmp -s <(sort "$out/ours.fdata") <(sort "$out/perf2bolt.fdata") && same_fdata=yes
say ".fdata: ours and perf2bolt's equal (lines sorted): $same_fdata"
echo "$same_profile $same_fdata" >"$out/same"
for f in ours perf2bolt; do
	"$bolt" "$out/$prog.base" -o "$out/$prog.bolt-$f" \
		-data="$out/$f.fdata" "${bolt_opts[@]}" >"$out/bolt-$f.log" 2>&1 ||
		{ say "llvm-bolt failed, see $out/bolt-$f.log"; exit 1; }
done

fi

# 5. Time them on another input: objdump -d on /usr/bin/python3 (gcc-12
#    code), else on the base;
#    readelf -wi on glibc's DWARF (libc6-dbg), else the base's.
timed=$out/$prog.base
if [ "$prog" = objdump ]; then
	py=$(readlink -f /usr/bin/python3 || true)
	[ -n "$py" ] && [ -r "$py" ] && timed=$py
else
	id=$(readelf -n /lib/x86_64-linux-gnu/libc.so.6 2>/dev/null |
		awk '/Build ID/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	[ -n "$id" ] && [ -r "$dbg" ] && timed=$dbg
fi
read -r same_profile same_fdata <"$out/same"
python3 - "$out" "$runs" "$same_profile" "$same_fdata" "$timed" "$prog" "$opt" <<'EOF'
import json, os, statistics, subprocess, sys, time

out, runs = sys.argv[1], int(sys.argv[2])
names = ["base", "autofdo-ours", "autofdo-llvm", "bolt-ours",
         "bolt-perf2bolt"]
prog, opt = sys.argv[6], sys.argv[7]
bins = {n: os.path.join(out, prog + "." + n) for n in names}
timed = sys.argv[5]
args = [opt, timed]
ref = None
for n in names:                 # the same output from each, and warm caches
    r = subprocess.run([bins[n]] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=True).stdout
    if ref is None:
        ref = r
    elif r != ref:
        raise SystemExit(f"pgo-demo: {prog}.{n} prints something else")
times = {n: [] for n in names}
walls = {n: [] for n in names}
l0 = os.getloadavg()[0]
for rep in range(runs):
    order = names[rep % len(names):] + names[:rep % len(names)]
    for n in order:
        t0 = time.perf_counter()
        p = subprocess.Popen([bins[n]] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, st, ru = os.wait4(p.pid, 0)
        walls[n].append(time.perf_counter() - t0)
        if os.waitstatus_to_exitcode(st) != 0:
            raise SystemExit(f"pgo-demo: {prog}.{n} failed")
        times[n].append(ru.ru_utime + ru.ru_stime)
l1 = os.getloadavg()[0]
med = {n: statistics.median(v) for n, v in times.items()}
blob = {n: open(bins[n], "rb").read() for n in names}
same = {(a, b): blob[a] == blob[b] for a in names for b in names}
res = {"program": f"binutils 2.40 {prog} (clang-19 -O2 -g "
                  "-fdebug-info-for-profiling)",
       "training": open(os.path.join(out, "train.desc")).read().strip(),
       "recorder": open(os.path.join(out, "record.cmd")).read().strip(),
       "record_summary": open(os.path.join(out, "record.log")).read()
                         .strip().splitlines()[-1],
       "profile_cost": {"ours": open(os.path.join(out, "autofdo.time"))
                        .read().strip(),
                        "llvm-profgen": open(os.path.join(out,
                                             "profgen.time")).read().strip()},
       "timed": f"{prog} {opt} {timed} ({os.path.getsize(timed)} bytes)",
       "runs": runs, "loadavg": [round(l0, 2), round(l1, 2)],
       "profiles_identical": sys.argv[3] == "yes",
       "fdata_identical": sys.argv[4] == "yes",
       "identical_binaries": [[a, b] for i, a in enumerate(names)
                              for b in names[i + 1:] if same[a, b]],
       "cpu_seconds": {n: {"median": med[n], "min": min(v), "max": max(v)}
                       for n, v in times.items()},
       "wall_seconds": {n: {"median": statistics.median(v), "min": min(v),
                            "max": max(v)} for n, v in walls.items()},
       "speedup": {n: med["base"] / med[n] for n in names[1:]},
       "speedup_of_minima": {n: min(times["base"]) / min(times[n])
                             for n in names[1:]},
       "noise": {n: (max(v) - min(v)) / med[n] for n, v in times.items()}}
with open(os.path.join(out, "pgo.json"), "w") as f:
    json.dump(res, f, indent=1)
print(f"pgo-demo: {res['timed']}: CPU time (user + sys), median of {runs} "
      f"alternated runs (load {res['loadavg'][0]} -> {res['loadavg'][1]}):")
for n in names:
    s = "" if n == "base" else (
        f"  speed-up {res['speedup'][n]:.3f}x"
        f" (of the minima {res['speedup_of_minima'][n]:.3f}x)")
    print(f"  {n:16s} {med[n]:8.3f} s  min {min(times[n]):.3f} s  "
          f"(spread {100 * res['noise'][n]:.1f}%){s}")
for a, b in res["identical_binaries"]:
    print(f"  {prog}.{a} and {prog}.{b} are the same file")
EOF
