#!/bin/bash
# profile.sh OUT: callgrind instruction counts behind the benchmark's ratios
# (`make bench-profile`).  Instruction counts repeat exactly from run to run,
# unlike times on these shared machines, so they show what limits a ratio.
#
#  - the splitters on 10^5-block versions of streams (a) and (b) and on (c)
#    (--no-check: only loading and feeding; loading costs every side the
#    same few instructions per block);
#  - `blockrange ranges` and llvm-profgen-19 on 10 copies of the trace.
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
