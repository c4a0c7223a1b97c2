#!/bin/sh
# Instructions per phase of `legate adjudicate --batch` and of the judge it
# wraps, on the same phases (fixtures/adjudicate-json/games.jsonl), counted by
# callgrind: each program runs once over the file and once over it eleven
# times; the difference over ten passes is the cost of the phases alone
# (start-up, reading the map and the first pass's warm-up cancel out).
#
#   JSON path (binary): the release binary, stdin to stdout
#   JSON path (bench):  benches/adjudicate_json.rs, the same work in process
#   core (bench):       judge::adjudicate on each phase, already read
#
# Usage: scripts/bench_adjudicate_json.sh [BINARY]
# BINARY defaults to target/release/legate (built here); give another build's
# binary to count it on the same file.
set -eu
cd "$(dirname "$0")/.."
file=fixtures/adjudicate-json/games.jsonl
phases=$(grep -c . "$file")
if [ $# -ge 1 ]; then
    legate=$1
else
    cargo build --locked --release --bin legate >&2
    legate=target/release/legate
fi
bench=$(cargo bench --locked --bench adjudicate_json --no-run 2>&1 |
    sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -n 1)
[ -x "$bench" ] || { echo "could not build the bench" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in 1 2 3 4 5 6 7 8 9 10 11; do cat "$file"; done > "$tmp/eleven.jsonl"

# Total instructions of one run under callgrind (stdin from $input).
count() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" \
        < "$input" > /dev/null 2> "$tmp/log" || true
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}
per_phase() {
    echo $(( ($2 - $1) / (10 * phases) ))
}

input=$file; one=$(count "$legate" adjudicate --batch)
input=$tmp/eleven.jsonl; eleven=$(count "$legate" adjudicate --batch)
binary=$(per_phase "$one" "$eleven")
input=/dev/null
one=$(LEGATE_COUNT=1 LEGATE_COUNT_ONLY=json count "$bench")
eleven=$(LEGATE_COUNT=11 LEGATE_COUNT_ONLY=json count "$bench")
json=$(per_phase "$one" "$eleven")
one=$(LEGATE_COUNT=1 LEGATE_COUNT_ONLY=core count "$bench")
eleven=$(LEGATE_COUNT=11 LEGATE_COUNT_ONLY=core count "$bench")
core=$(per_phase "$one" "$eleven")
echo "instructions per phase over $phases phases ($file):"
echo "  JSON path, binary ($legate): $binary"
echo "  JSON path, bench:            $json"
echo "  core, bench:                 $core"
awk -v b="$binary" -v j="$json" -v c="$core" 'BEGIN {
    printf "  ratio to the core: binary %.2f, bench %.2f\n", b / c, j / c }'
