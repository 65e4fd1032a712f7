#!/bin/bash
# profile.sh OUT: callgrind instruction counts behind the benchmark's ratios
# (`make bench-profile`).  Instruction counts repeat exactly from run to run,
# unlike times on these shared machines, so they show what limits a ratio.
#
#  - the splitters on 10^5-block versions of streams (a) and (b) and on (c)
#    (--no-check: only loading and feeding; loading costs every side the
#    same few instructions per block);
#  - `blockrange ranges` and llvm-profgen-19 on 10 copies of the trace;
#  - with MD_DATA (one recording of the multi-DSO workload, perf.data):
#    `blockrange annotate -i` and the perf script pipeline (perf script,
#    then `blockrange annotate --perfscript`) on 10 and 20 copies of it
#    (the difference / 10 is the cost of one copy, without the start and
#    the printing), and annotate -j 2 on 20 copies, thread by thread.
#
# Writes OUT/cg.* (open with callgrind_annotate or kcachegrind) and prints
# totals and the top functions.
set -euo pipefail

out=${1:?usage: profile.sh OUT}
bench=$(dirname "$out")
: "${BLOCKRANGE:?}" "${WORKLOAD:?}" "${LLVM_PROFGEN:=llvm-profgen-19}"
mkdir -p "$out"

top() {	# top CALLGRIND_FILE: total and the 8 costliest functions (self)
	callgrind_annotate --threshold=100 "$1" 2>/dev/null |
		sed -n '/file:function/,$p' | sed -n '3,10p' |
		sed -e 's|/work/[^ ]*/||' -e 's/ \[.*//' | cut -c1-110
}

total() {
	callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ { print $1 }'
}

"$bench/blockgen" random "$out/a100k.blk" 100000 65536 64 1
"$bench/blockgen" trace "$out/b100k.blk" 100000 "$bench/trace.perfscript" \
	0x400000 0x10000000 "$bench/streams/b.nm" 2>/dev/null
cp "$bench/streams/c.blk" "$out/c100k.blk"

for s in a100k b100k c100k; do
	for impl in ours batch perf-ndebug bound; do
		f=$out/cg.$impl.$s
		valgrind --tool=callgrind --callgrind-out-file="$f" \
			"$bench/splitbench-$impl" "$out/$s.blk" --no-check \
			>/dev/null 2>&1
		echo "== $impl on $s: $(total "$f") instructions"
		top "$f"
	done
done

for i in 1 2 3 4 5 6 7 8 9 10; do cat "$bench/trace.perfscript"; done \
	> "$out/e2e10.perfscript"
valgrind --tool=callgrind --callgrind-out-file="$out/cg.ranges" \
	"$BLOCKRANGE" ranges --perfscript "$out/e2e10.perfscript" \
	--binary "$WORKLOAD" > "$out/e2e10.ours" 2>/dev/null
valgrind --tool=callgrind --callgrind-out-file="$out/cg.llvm-profgen" \
	"$LLVM_PROFGEN" --format=text --perfscript="$out/e2e10.perfscript" \
	--binary="$WORKLOAD" --output="$out/e2e10.llvm" --skip-symbolization \
	>/dev/null 2>&1
cmp "$out/e2e10.ours" "$out/e2e10.llvm"
size=$(stat -c %s "$out/e2e10.perfscript")
for t in ranges llvm-profgen; do
	n=$(total "$out/cg.$t")
	echo "== $t on $size bytes: $n instructions" \
		"($(awk -v n="${n//,/}" -v s="$size" 'BEGIN { printf "%.1f", n / s }')/byte)"
	top "$out/cg.$t"
done
rm -f "$out/e2e10.perfscript"

[ -n "${MD_DATA:-}" ] || exit 0
: "${PDREPL:?}" "${PERF:=perf}"
n() { total "$1" | tr -d ,; }
for k in 10 20; do
	python3 "$PDREPL" "$MD_DATA" "$out/md$k.data" --copies $k 2>/dev/null
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.annotate.md$k" \
		"$BLOCKRANGE" annotate -i "$out/md$k.data" -j 1 --no-pager \
		> "$out/md$k.ours" 2>/dev/null
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.perf-script.md$k" \
		"$PERF" script -F event,ip,brstack --show-mmap-events -f \
		-i "$out/md$k.data" > "$out/md$k.txt" 2>/dev/null
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.annotate-text.md$k" \
		"$BLOCKRANGE" annotate --perfscript "$out/md$k.txt" -j 1 \
		--no-pager > "$out/md$k.pipe" 2>/dev/null
	cmp "$out/md$k.ours" "$out/md$k.pipe"
done
for t in annotate perf-script annotate-text; do
	a=$(n "$out/cg.$t.md10")
	b=$(n "$out/cg.$t.md20")
	echo "== $t: 10 copies $a, 20 copies $b instructions;" \
		"one copy $(( (b - a) / 10 )), the rest $(( a - (b - a) ))"
	top "$out/cg.$t.md20"
done
rm -f "$out"/cg.annotate-j2.md20*
valgrind --tool=callgrind --separate-threads=yes \
	--callgrind-out-file="$out/cg.annotate-j2.md20" \
	"$BLOCKRANGE" annotate -i "$out/md20.data" -j 2 --no-pager \
	> /dev/null 2>&1
for f in "$out"/cg.annotate-j2.md20-*; do
	echo "== annotate -j 2, thread ${f##*-}: $(total "$f") instructions"
	top "$f" | head -4
done
rm -f "$out"/md10.* "$out"/md20.*
