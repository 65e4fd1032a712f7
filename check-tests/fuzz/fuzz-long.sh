#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One run of `make fuzz-long` for one harness: fuzz from the committed
# corpus and the working corpus of earlier runs, minimize what was found
# into the committed corpus, append a line to the ledger.
#
#   fuzz-long.sh NAME BINARY CORPUS MAX_LEN 'EXTRA FLAGS' [SEED_FILE...]
#
# Environment: FUZZ_LONG_SECONDS (the run's length), FUZZ_LONG_DIR (the
# working directory: NAME/work carries over to the next run), LEDGER (the
# ledger file), FUZZ_ASAN_OPTIONS.  The fuzzer runs under nice -n 19.
# Exit status: 0, or 1 when the harness failed (its input is in
# FUZZ_LONG_DIR/NAME/artifacts/ and the ledger line says so).
set -euo pipefail

name=$1 bin=$2 corpus=$3 max_len=$4 extra=$5
shift 5
seconds=${FUZZ_LONG_SECONDS:?}
top=${FUZZ_LONG_DIR:?}/$name
ledger=${LEDGER:?}

mkdir -p "$top/work" "$top/artifacts" "$top/seeds"
rm -f "$top/seeds"/*
for f in "$@"; do
	[ -f "$f" ] && [ "$(stat -c %s "$f")" -le "$max_len" ] || continue
	d=${f%/*}
	cp "$f" "$top/seeds/${d##*/}-${f##*/}"
done

echo "== fuzz-long: $name for $seconds s (log: $top/fuzz.log)"
status=0
# shellcheck disable=SC2086
# The CPU time it got, too: on a shared machine exec/s measures the load.
(cd "$top" && ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-} /usr/bin/time -f '%U %S %e' \
	-o "$top/cpu.txt" nice -n 19 "$bin" \
	-max_total_time="$seconds" -max_len="$max_len" $extra \
	-print_final_stats=1 -artifact_prefix="$top/artifacts/" \
	work "$corpus" seeds) > "$top/fuzz.log" 2>&1 || status=$?

stat_of() {
	sed -n "s/^stat::$1:[[:space:]]*//p" "$top/fuzz.log" | tail -n 1
}
execs=$(stat_of number_of_executed_units)
rate=$(stat_of average_exec_per_sec)
cpu=$(awk 'END { printf "%.1f", $1 + $2 }' "$top/cpu.txt")
# what it ran: FUZZ_LONG_SECONDS, or less when the harness failed
wall=$(awk 'END { printf "%.0f", $3 }' "$top/cpu.txt")
per_cpu=$(awk -v e="${execs:-0}" -v c="$cpu" \
	'BEGIN { printf "%.0f", (c > 0 ? e / c : 0) }')
result=ok
if [ "$status" -ne 0 ]; then
	art=$(ls -t "$top/artifacts" 2>/dev/null | head -n 1)
	result="failed:${art:-status-$status}"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*check failed|.*invariant failed)' \
		"$top/fuzz.log" | head -n 5 || true
else
	# Only inputs that add edges join the committed corpus (hit counts
	# too would add several times the files); the working corpus keeps
	# every input the fuzzer kept, for the next run in this build tree.
	(cd "$top" && ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-} nice -n 19 "$bin" \
		-merge=1 -use_counters=0 -max_len="$max_len" "$corpus" work) \
		> "$top/merge.log" 2>&1 || { result=merge-failed; status=1; }
fi

prev=$(awk -F'\t' -v n="$name" '$2 == n { t = $7 } END { print t + 0 }' \
	"$ledger")
total=$((prev + ${execs:-0}))
files=$(find "$corpus" -type f | wc -l)
bytes=$(find "$corpus" -type f -exec cat {} + | wc -c)
commit=$(git -C "$(dirname "$ledger")" rev-parse --short HEAD 2>/dev/null ||
	echo unknown)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	"$(date -u +%Y-%m-%dT%H:%MZ)" "$name" "$commit" "$wall" "$cpu" \
	"${execs:-0}" "$total" "${rate:-0}" "$per_cpu" "$files" "$bytes" \
	"$result" \
	>> "$ledger"
echo "== fuzz-long: $name: ${execs:-0} executions (${rate:-0}/s, $per_cpu per CPU second), $total in all, corpus $files files ($bytes bytes), $result"
exit $((status != 0))
