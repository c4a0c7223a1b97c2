#!/bin/sh
# Capacity figures (docs/capacity.md): builds databases of 100, 1,000 and
# 10,000 games, then measures ingest, deadlines and pictures, each run
# REPEAT times on a fresh copy of the database; prints every run with the
# load average (the figures depend on it: compare runs taken together).
# Usage: scripts/capacity.sh [WORKDIR] (default: a temporary directory)
set -eu
REPEAT=${REPEAT:-3}
MAILS=${MAILS:-2000}
SIZES=${SIZES:-"100 1000 10000"}
cd "$(dirname "$0")/.."
cargo build --profile dist --locked --quiet
BIN=$PWD/target/dist/legate
DIR=${1:-$(mktemp -d)}
mkdir -p "$DIR"
for n in $SIZES; do
    due=$((n / 10))
    [ "$n" -ge 10000 ] && due=1000
    base="$DIR/games-$n.db"
    [ -f "$base" ] || "$BIN" bench setup --db "$base" --games "$n" --due "$due"
    for r in $(seq "$REPEAT"); do
        # Every sender new (argon2 each mail), a sender's 20 mails in a row,
        # and every sender's password check already remembered.
        for how in "--per-sender 1" "--per-sender 20" "--per-sender 20 --warm-checks"; do
            rm -f "$DIR/run.db-wal" "$DIR/run.db-shm"
            cp "$base" "$DIR/run.db"
            echo "== ingest games=$n run=$r $how load $(cut -d' ' -f1-3 /proc/loadavg)"
            # shellcheck disable=SC2086
            "$BIN" bench ingest --db "$DIR/run.db" --mails "$MAILS" $how
        done
        rm -f "$DIR/run.db-wal" "$DIR/run.db-shm"
        cp "$base" "$DIR/run.db"
        echo "== deadlines games=$n due=$due run=$r load $(cut -d' ' -f1-3 /proc/loadavg)"
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
