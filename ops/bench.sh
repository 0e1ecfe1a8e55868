#!/usr/bin/env bash
# `make bench`: every figure beside its floor, measured in one run. Brings up a stack of its own
# (fresh database, free port, private Redis) serving the benchmark's app, the product API with the
# floor endpoint beside it (bench/floor_app.py), measures terminal load against that floor,
# stops it, then runs the replay, settlement and house-edge benchmarks (each starts what it needs),
# prints one table and writes bench/results/bench.json. Sub-benchmark output: run/bench/*.log.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=.venv/bin
PY="$BIN/python"
RUN_DIR=run/bench
rm -rf "$RUN_DIR"
mkdir -p "$RUN_DIR" bench/results
started=$(date +%s)
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

export PORT; PORT=$(free_port)
export PONTOON_HEALTH_PORT; PONTOON_HEALTH_PORT=$(free_port)
REDIS_PORT=$(free_port)
DB_NAME="pontoon_bench_$(date +%Y%m%d%H%M%S)_$$"
export DATABASE_URL="postgresql://postgres@127.0.0.1:5432/$DB_NAME"
export BROKER_URL="redis://127.0.0.1:$REDIS_PORT/0"
URL="http://127.0.0.1:$PORT"

redis=""
stack=""
stop_stack() {
  if [ -n "$stack" ]; then kill -TERM "$stack" 2>/dev/null || true; wait "$stack" 2>/dev/null || true; stack=""; fi
  if [ -n "$redis" ]; then kill -TERM "$redis" 2>/dev/null || true; wait "$redis" 2>/dev/null || true; redis=""; fi
}
cleanup() {
  stop_stack
  "$PY" - "$DB_NAME" <<'PY' || true
import sys
import psycopg
from psycopg import sql
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(sys.argv[1])))
PY
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== terminal load (stack on $URL, database $DB_NAME)"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no >"$RUN_DIR/redis.log" 2>&1 &
redis=$!
PONTOON_WSGI_APP='bench.floor_app:create_app()' PONTOON_RUN_DIR="$RUN_DIR/stack" PONTOON_STACK_QUIET=1 bash ops/stack.sh >"$RUN_DIR/stack.out" 2>&1 &
stack=$!
for _ in $(seq 1 600); do
  grep -q "^API on" "$RUN_DIR/stack.out" && break
  kill -0 "$stack" 2>/dev/null || { cat "$RUN_DIR/stack.out" >&2; exit 1; }
  sleep 0.1
done
admin_key=$(grep '^pnt_' "$RUN_DIR/stack.out" | head -n1)
[ -n "$admin_key" ] || { echo "no admin key from the fresh stack" >&2; cat "$RUN_DIR/stack.out" >&2; exit 1; }
"$PY" bench/terminal_bench.py --url "$URL" --admin-key "$admin_key" ${BENCH_TERMINAL_ARGS:-} \
  >"$RUN_DIR/terminal.log" 2> >(tee "$RUN_DIR/terminal.progress" >&2) || echo "terminal bench reported errors (see $RUN_DIR/terminal.log)" >&2
stop_stack

echo "== batch replay"
"$PY" bench/replay_bench.py >"$RUN_DIR/replay.log" 2>&1 || echo "replay bench failed (see $RUN_DIR/replay.log)" >&2
if [ -f bench/settlement_bench.py ]; then
  echo "== settlement backlog drain"
  "$PY" bench/settlement_bench.py --log-dir "$RUN_DIR/settlement-logs" >"$RUN_DIR/settlement.log" 2>&1 \
    || echo "settlement bench failed (see $RUN_DIR/settlement.log)" >&2
fi
if [ -f bench/house_edge_bench.py ]; then
  echo "== house-edge simulation"
  "$PY" bench/house_edge_bench.py >"$RUN_DIR/house_edge.log" 2>&1 || echo "house-edge bench failed (see $RUN_DIR/house_edge.log)" >&2
fi

echo
"$PY" bench/report.py --since "$started"
