#!/usr/bin/env bash
# `make demo`: brings the stack up in the background, plays about 300 rounds through the terminal
# simulator (two virtual-shoe terminals and one physical-shoe terminal), then shows where to look
# (metrics, a recall, the table report) and stops the stack. From a terminal it waits for Enter
# before stopping, so the URLs can be opened meanwhile. The stack's first-start admin key, if the
# stack made one for the demo, is never written out and is revoked when the demo ends.
#
# The demo plays on a database of its own (pontoon_demo), so the casino's (`make run`'s) is left as
# it was: its first start there still makes and prints the console's first admin.
#
# Environment: PORT, DATABASE_URL (the pontoon_demo database), BROKER_URL as for the stack;
# PONTOON_RUN_DIR (run/demo-$PORT);
# DEMO_ROUNDS (200, at the virtual-shoe tables) and DEMO_PHYSICAL_ROUNDS (100).
set -euo pipefail
cd "$(dirname "$0")/.."

export PORT="${PORT:-8000}"
export DATABASE_URL="${DATABASE_URL:-postgresql://pontoon_app@127.0.0.1:5432/pontoon_demo}"
export BROKER_URL="${BROKER_URL:-redis://127.0.0.1:6379/0}"
BIN=.venv/bin
URL="http://127.0.0.1:$PORT"
RUN_DIR="${PONTOON_RUN_DIR:-run/demo-$PORT}"
mkdir -p "$RUN_DIR"

stack=""
admin_key_id=""
first_admin_before=""
# Live first-start admin keys (ids): one that appears while the demo runs is the demo's own.
first_admin_keys() {
  { "$BIN/pontoon" keys list 2>/dev/null || true; } | awk '$2 == "admin" && $4 == "first-admin" && $NF == "-" {print $1}'
}
finish() {
  if [ -n "$admin_key_id" ]; then "$BIN/pontoon" keys revoke "$admin_key_id" >/dev/null 2>&1 || true; fi
  if [ -n "$stack" ]; then
    local key_id
    for key_id in $(first_admin_keys); do
      if ! grep -qx "$key_id" <<<"$first_admin_before"; then
        "$BIN/pontoon" keys revoke "$key_id" >/dev/null 2>&1 \
          && echo "The admin key the stack made on its first start for this demo is revoked; \`make run\` makes a new one." \
          || echo "warning: the demo's first admin key $key_id could not be revoked: pontoon keys revoke $key_id" >&2
      fi
    done
  fi
  if [ -n "$stack" ]; then
    kill -TERM "$stack" 2>/dev/null || true
    wait "$stack" 2>/dev/null || true
  fi
}
trap finish EXIT
trap 'exit 130' INT TERM

first_admin_before=$(first_admin_keys)
echo "Starting the stack on $URL (logs under $RUN_DIR/stack/log)"
# Secrets the stack prints on a first start (the admin key, the console's first password) are
# masked before they reach the file: the demo's own key drives it, and both are the casino's.
PONTOON_RUN_DIR="$RUN_DIR/stack" PONTOON_STACK_QUIET=1 bash ops/stack.sh \
  > >(sed -u -E 's/pnt_[A-Za-z0-9_-]+/pnt_<not shown>/g; s/^(  password  ).*/\1<not shown>/' >"$RUN_DIR/stack.out") 2>&1 &
stack=$!
for _ in $(seq 1 600); do
  grep -q "^API on" "$RUN_DIR/stack.out" && break
  kill -0 "$stack" 2>/dev/null || { echo "the stack did not start:" >&2; cat "$RUN_DIR/stack.out" >&2; exit 1; }
  sleep 0.1
done
grep -q "^API on" "$RUN_DIR/stack.out" || { echo "the stack did not become ready" >&2; exit 1; }

# A key for this demo only (revoked when it ends): the first-start admin key is the operator's.
# An admin key is a person's: the demo's belongs to the first active admin account.
owner=$("$BIN/pontoon" users list | awk '$2 == "admin" && $3 == "active" {print $1; exit}')
created=$("$BIN/pontoon" keys create --role admin --name demo --owner "$owner")
admin_key_id=$(echo "$created" | head -n1 | awk '{print $2}')
admin_key=$(echo "$created" | tail -n1)

table="DEMO-$(date +%H%M%S)"
echo "Two terminals with virtual shoes play ${DEMO_ROUNDS:-200} rounds at tables $table-1 and $table-2 ..."
"$BIN/pontoon" terminal --url "$URL" --admin-key "$admin_key" --table "$table" --rounds "${DEMO_ROUNDS:-200}" --concurrency 2 --seats 3
echo "One terminal with a physical shoe reports every card for ${DEMO_PHYSICAL_ROUNDS:-100} rounds at table $table-P ..."
"$BIN/pontoon" terminal --url "$URL" --admin-key "$admin_key" --table "$table-P" --rounds "${DEMO_PHYSICAL_ROUNDS:-100}" --seats 4 --physical

"$BIN/python" -m service.terminal.tour --url "$URL" --admin-key "$admin_key" \
  --table "$table-1" --table "$table-2" --table "$table-P"
echo
echo "Logs (JSON lines, with request and round ids): $RUN_DIR/stack/log/"
if [ -t 0 ]; then
  read -r -p "Press Enter to stop the stack. " _ || true
fi
