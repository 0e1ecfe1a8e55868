#!/usr/bin/env bash
# Runs the API in the foreground on 127.0.0.1:${PORT:-8000}: migrates, prints an admin key on the
# first start, then serves with gunicorn until Ctrl-C. DATABASE_URL and BROKER_URL are honoured.
# Metrics in multiprocess mode under PONTOON_RUN_DIR (run/api-$PORT), emptied at each start, and
# JSON logs, as the whole stack's.
set -euo pipefail
cd "$(dirname "$0")/.."
export PORT="${PORT:-8000}"
RUN_DIR="${PONTOON_RUN_DIR:-run/api-$PORT}"
export PROMETHEUS_MULTIPROC_DIR="$RUN_DIR/metrics"
rm -rf "$PROMETHEUS_MULTIPROC_DIR"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
PROMETHEUS_MULTIPROC_DIR="$(cd "$PROMETHEUS_MULTIPROC_DIR" && pwd)"   # absolute: workers may change directory

.venv/bin/pontoon migrate

# First start (no admin key yet): make one and show it; it is never shown again. An admin key is a
# person's: it belongs to the first active admin account, made here first when there is none.
FIRST_ADMIN="${PONTOON_FIRST_ADMIN:-admin-$(.venv/bin/python -c 'import secrets; print(secrets.token_hex(3))')}"
account=$(.venv/bin/pontoon users create --username "$FIRST_ADMIN" --role admin --name "First admin" --if-none)
if [ -n "$account" ]; then
  echo "First start: the console's admin account (sign in, then set your own password on Your account):"
  echo "  username  $FIRST_ADMIN"
  echo "  password  $(echo "$account" | tail -n 1)"
fi
owner=$(.venv/bin/pontoon users list | awk '$2 == "admin" && $3 == "active" {print $1; exit}')
first_admin=$(.venv/bin/pontoon keys create --role admin --name first-admin --owner "$owner" --if-none)
if [ -n "$first_admin" ]; then
  echo "First start: the admin key of $owner's (keep it; it is not shown again):"
  echo "$first_admin" | tail -n 1
fi

.venv/bin/gunicorn -c ops/gunicorn.conf.py --logger-class service.observability.gunicorn_logger.JsonLogger \
  'service.app:create_app()' &
web=$!
stop() { kill -TERM "$web" 2>/dev/null || true; }
trap stop INT TERM
echo "API on http://127.0.0.1:${PORT} (Ctrl-C stops it)"
wait "$web" || true              # returns as soon as a signal arrives ...
wait "$web" 2>/dev/null || true  # ... so wait again while gunicorn shuts down gracefully
