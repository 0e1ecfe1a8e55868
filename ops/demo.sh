#!/usr/bin/env bash
# `make demo`: brings the stack up in the background, plays about 300 rounds through the terminal
# simulator (two virtual-shoe terminals and one physical-shoe terminal), then shows where to look
# (metrics, a recall, the table report) and stops the stack. From a terminal it waits for Enter
# before stopping, so the URLs can be opened meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."

export PORT="${PORT:-8000}"
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/pontoon}"
export BROKER_URL="${BROKER_URL:-redis://127.0.0.1:6379/0}"
BIN=.venv/bin
URL="http://127.0.0.1:$PORT"
RUN_DIR="run/demo-$PORT"
mkdir -p "$RUN_DIR"

stack=""
admin_key_id=""
finish() {
  if [ -n "$admin_key_id" ]; then "$BIN/pontoon" keys revoke "$admin_key_id" >/dev/null 2>&1 || true; fi
  if [ -n "$stack" ]; then
    kill -TERM "$stack" 2>/dev/null || true
    wait "$stack" 2>/dev/null || true
  fi
}
trap finish EXIT
trap 'exit 130' INT TERM

echo "Starting the stack on $URL (logs under $RUN_DIR/stack/log)"
PONTOON_RUN_DIR="$RUN_DIR/stack" PONTOON_STACK_QUIET=1 bash ops/stack.sh >"$RUN_DIR/stack.out" 2>&1 &
stack=$!
for _ in $(seq 1 600); do
  grep -q "^API on" "$RUN_DIR/stack.out" && break
  kill -0 "$stack" 2>/dev/null || { echo "the stack did not start:" >&2; cat "$RUN_DIR/stack.out" >&2; exit 1; }
  sleep 0.1
done
grep -q "^API on" "$RUN_DIR/stack.out" || { echo "the stack did not become ready" >&2; exit 1; }

# A key for this demo only (revoked when it ends): the first-start admin key is the operator's.
created=$("$BIN/pontoon" keys create --role admin --name demo)
admin_key_id=$(echo "$created" | head -n1 | awk '{print $2}')
admin_key=$(echo "$created" | tail -n1)

table="DEMO-$(date +%H%M%S)"
echo "Two terminals with virtual shoes play 200 rounds at tables $table-1 and $table-2 ..."
"$BIN/pontoon" terminal --url "$URL" --admin-key "$admin_key" --table "$table" --rounds 200 --concurrency 2 --seats 3
echo "One terminal with a physical shoe reports every card for 100 rounds at table $table-P ..."
"$BIN/pontoon" terminal --url "$URL" --admin-key "$admin_key" --table "$table-P" --rounds 100 --seats 4 --physical

"$BIN/python" -m service.terminal.tour --url "$URL" --admin-key "$admin_key" \
  --table "$table-1" --table "$table-2" --table "$table-P"
echo
echo "Logs (JSON lines, with request and round ids): $RUN_DIR/stack/log/"
if [ -t 0 ]; then
  read -r -p "Press Enter to stop the stack. " _ || true
fi
