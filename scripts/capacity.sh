#!/bin/sh
# Capacity figures (docs/capacity.md): builds databases of 100, 1,000 and
# 10,000 games, then measures ingest, deadlines and pictures, each run
# REPEAT times on a fresh copy of the database; prints every run.
# Usage: scripts/capacity.sh [WORKDIR] (default: a temporary directory)
set -eu
REPEAT=${REPEAT:-3}
MAILS=${MAILS:-2000}
SIZES=${SIZES:-"100 1000 10000"}
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=$PWD/target/release/legate
DIR=${1:-$(mktemp -d)}
mkdir -p "$DIR"
for n in $SIZES; do
    due=$((n / 10))
    [ "$n" -ge 10000 ] && due=1000
    base="$DIR/games-$n.db"
    [ -f "$base" ] || "$BIN" bench setup --db "$base" --games "$n" --due "$due"
    for r in $(seq "$REPEAT"); do
        cp "$base" "$DIR/run.db"
        echo "== ingest games=$n run=$r"
        "$BIN" bench ingest --db "$DIR/run.db" --mails "$MAILS" --per-sender "${PER_SENDER:-1}"
        cp "$base" "$DIR/run.db"
        echo "== deadlines games=$n due=$due run=$r"
        /usr/bin/time -f "max_rss_kib %M" "$BIN" bench deadlines --db "$DIR/run.db"
    done
    rm -f "$DIR/run.db" "$DIR/run.db-wal" "$DIR/run.db-shm"
done
echo "== pictures"
"$BIN" bench png --count 50
echo "== adjudication batch"
# The opening with a common set of orders, 10,000 times.
python3 -c 'import json,sys; l=json.dumps(json.load(open(sys.argv[1]))); print("\n".join([l]*10000))' \
    config/examples/spring1901.json > "$DIR/positions.jsonl"
/usr/bin/time -f "elapsed_s %e" "$BIN" adjudicate --batch < "$DIR/positions.jsonl" > /dev/null
