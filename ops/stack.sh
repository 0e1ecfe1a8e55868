#!/usr/bin/env bash
# The whole stack in the foreground (`make run`): migrates, prints an admin key on the first start,
# then runs the API under gunicorn (workers from the cores), a Celery settlement worker and the
# outbox relay (which also sweeps stale rounds and asks for each gaming day's verification of the
# audit log), with Prometheus multiprocess metrics and JSON logs. A worker or relay that dies is
# started again (0.5 s doubling to 5 s between tries). Ctrl-C (or SIGTERM) stops every process it
# started and waits for them.
#
# Environment: PORT (8000), PONTOON_HEALTH_PORT (liveness; PORT + 1), DATABASE_URL, PONTOON_OWNER_DATABASE_URL, BROKER_URL, WEB_CONCURRENCY (gunicorn workers; default
# from the cores), CELERY_CONCURRENCY (default: the cores, at least 2), SETTLEMENT_NICE (the worker's and the
# relay's niceness, 10), PONTOON_RUN_DIR (run/stack-$PORT: logs and metric files),
# PONTOON_STACK_QUIET=1 (print only the URL and the admin key), PONTOON_STARTED_SERVICES (a file
# listing the services started for this stack, `make run`'s: they are stopped with it),
# PONTOON_WSGI_APP (the app gunicorn serves, 'service.app:create_app()'; `make bench` gives its
# own, 'bench.floor_app:create_app()': the product API with the benchmark's floor endpoint),
# PONTOON_SECRETS_FILE (secrets.env beside PONTOON_RUN_DIR, run/secrets.env by default: the console's signing key and the key sealing TOTP
# secrets, made on the first start, mode 0600; keep it, and a copy off this host: without it
# every TOTP enrolment is lost), PONTOON_FIRST_ADMIN (the console's first admin's username; by
# default one made up and printed on the first start).
set -euo pipefail
cd "$(dirname "$0")/.."

export PORT="${PORT:-8000}"
# Liveness is answered on a port of its own by the API's master process (docs/operations.md).
export PONTOON_HEALTH_PORT="${PONTOON_HEALTH_PORT:-$((PORT + 1))}"
# The service logs in as pontoon_app; migrations and the first admin key use the owner's URL
# (PONTOON_OWNER_DATABASE_URL; by default the same database as the local superuser).
export DATABASE_URL="${DATABASE_URL:-postgresql://pontoon_app@127.0.0.1:5432/pontoon}"
export BROKER_URL="${BROKER_URL:-redis://127.0.0.1:6379/0}"
export PYTHONUNBUFFERED=1
BIN=.venv/bin
CORES=$(nproc 2>/dev/null || echo 2)
RUN_DIR="${PONTOON_RUN_DIR:-run/stack-$PORT}"
LOG_DIR="$RUN_DIR/log"
URL="http://127.0.0.1:$PORT"

# Metric files from a previous run would be summed into this one's: start from an empty directory.
export PROMETHEUS_MULTIPROC_DIR="$RUN_DIR/metrics"
rm -rf "$PROMETHEUS_MULTIPROC_DIR"
mkdir -p "$PROMETHEUS_MULTIPROC_DIR" "$LOG_DIR"
PROMETHEUS_MULTIPROC_DIR="$(cd "$PROMETHEUS_MULTIPROC_DIR" && pwd)"   # absolute: workers may change directory

say() { [ "${PONTOON_STACK_QUIET:-0}" = 1 ] || echo "$@"; }

# PostgreSQL and Redis as they were found: a service started for this stack stops with it, once
# this stack's processes are gone, unless another client (a second stack, a test run) uses it.
stop_started_services() {
  local list="${PONTOON_STARTED_SERVICES:-}" service where others
  [ -n "$list" ] && [ -f "$list" ] || return 0
  while read -r service where; do   # "postgresql CLUSTER-VERSION" or "redis HOST:PORT"
    case "$service" in
      postgresql)
        others=$(psql -w -h 127.0.0.1 -U postgres -Atc "SELECT count(*) FROM pg_stat_activity
                 WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()" 2>/dev/null || echo 0)
        if [ "$others" -gt 0 ]; then
          echo "PostgreSQL started for this stack is left running: $others other connections use it"
        else
          say "stopping PostgreSQL (started for this stack)"
          pg_ctlcluster --skip-systemctl-redirect "$where" main stop 2>/dev/null \
            || sudo -n pg_ctlcluster --skip-systemctl-redirect "$where" main stop || true
        fi ;;
      redis)
        others=$(( $(redis-cli -h "${where%:*}" -p "${where##*:}" client list 2>/dev/null | wc -l) - 1 ))
        if [ "$others" -gt 0 ]; then
          echo "Redis started for this stack is left running: $others other clients use it"
        else
          say "stopping Redis (started for this stack)"
          redis-cli -h "${where%:*}" -p "${where##*:}" shutdown nosave >/dev/null 2>&1 || true
        fi ;;
    esac
  done <"$list"
  rm -f "$list"
}
trap stop_started_services EXIT

# The keys staff sign-in depends on live outside the database, in a file only this user can read.
export PONTOON_SECRETS_FILE="${PONTOON_SECRETS_FILE:-$(dirname "$RUN_DIR")/secrets.env}"
if [ ! -e "$PONTOON_SECRETS_FILE" ]; then
  mkdir -p "$(dirname "$PONTOON_SECRETS_FILE")"
  (umask 077 && "$BIN/python" -c "from service.staff.keys import StaffKeys
keys = StaffKeys.generate()
print('# The console\'s keys, made on the first start: keep this file (mode 0600) and a copy off this host.')
print(f'PONTOON_SECRET_KEY={keys.signing_key}')
print(f'PONTOON_TOTP_KEY={keys.totp_key}')" >"$PONTOON_SECRETS_FILE.new" && mv "$PONTOON_SECRETS_FILE.new" "$PONTOON_SECRETS_FILE")
  say "First start: the console's keys are in $PONTOON_SECRETS_FILE (mode 0600)"
fi
chmod 600 "$PONTOON_SECRETS_FILE"

"$BIN/pontoon" migrate >/dev/null

# First start: no live admin key yet, so make one and show it (it is never shown again).
if ! "$BIN/python" - <<'PY'
import sys
import psycopg
from service.config import Settings
from service.store.repositories.keys import KeysRepository
with psycopg.connect(Settings.from_env().database_url) as conn:
    sys.exit(0 if KeysRepository(conn).any_live("admin") else 1)
PY
then
  need_admin_key=1
else
  need_admin_key=""
fi
# The console's first admin account (nothing is printed once an active admin exists). Its name is
# PONTOON_FIRST_ADMIN, else one made up here: never a name a stranger would guess first.
FIRST_ADMIN="${PONTOON_FIRST_ADMIN:-admin-$("$BIN/python" -c 'import secrets; print(secrets.token_hex(3))')}"
first_admin=$("$BIN/pontoon" users create --username "$FIRST_ADMIN" --role admin --name "First admin" --if-none) \
  || { echo "could not create the console's first admin account (see above)" >&2; first_admin=""; }
if [ -n "$first_admin" ]; then
  echo "First start: the console's admin account (sign in, then change the password on Your account):"
  echo "  username  $FIRST_ADMIN"
  echo "  password  $(echo "$first_admin" | tail -n 1)"
fi
# An admin key is a person's: the first one belongs to the first active admin account.
if [ -n "$need_admin_key" ]; then
  owner=$("$BIN/pontoon" users list | awk '$2 == "admin" && $3 == "active" {print $1; exit}')
  echo "First start: an admin key of $owner's (keep it; it is not shown again):"
  "$BIN/pontoon" keys create --role admin --name first-admin --owner "$owner" | tail -n 1
fi

# Each process in its own process group (job control on while they start), so stopping one takes
# its children too and a Ctrl-C reaches this script alone, which then stops them in order.
declare -A pid_of   # name -> the process running under it now
start() {  # start NAME LOGFILE COMMAND...   (standard output and error to LOGFILE)
  local name=$1 log=$2
  shift 2
  "$@" >>"$log" 2>&1 &
  pid_of[$name]=$!
}
start_console_apart() {  # the same, standard output to LOGFILE's .out beside it
  local name=$1 log=$2
  shift 2
  "$@" >>"${log%.log}.out" 2>>"$log" &
  pid_of[$name]=$!
}

stopped=0
stop_all() {
  [ "$stopped" = 1 ] && return
  stopped=1
  local pid pids=("${pid_of[@]}")
  # Each process leads its own children (gunicorn its workers, Celery its pool): it alone is told
  # to stop, so it can let them finish what they hold (a request, a settling batch). A signal to
  # the whole group would end Celery's pool processes mid-batch.
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 150); do   # gunicorn's graceful timeout is 10 s; a settling batch takes well under that
    local alive=0
    for pid in "${pids[@]}"; do kill -0 -- "-$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  stop_started_services
}
signalled=0
trap 'signalled=1' INT TERM
trap stop_all EXIT

# The relay signs every chain's head with a key outside the database (generated on the first start,
# readable by this user only) into append-only checkpoint files; keep a copy of both off this host.
export PONTOON_CHECKPOINT_KEY="${PONTOON_CHECKPOINT_KEY:-run/keys/checkpoint-$PORT.pem}"
export PONTOON_CHECKPOINT_DIR="${PONTOON_CHECKPOINT_DIR:-run/checkpoints-$PORT}"
(umask 077 && mkdir -p "$(dirname "$PONTOON_CHECKPOINT_KEY")" && "$BIN/python" -c \
  'import sys; from service.audit.checkpoints import load_or_create_key; load_or_create_key(sys.argv[1])' \
  "$PONTOON_CHECKPOINT_KEY")

# Settlement and the relay yield the CPU to the API on a machine they share with it: a terminal
# waits on its request, a round waits a little longer for the ledger and nothing waits on that.
NICE=(nice -n "${SETTLEMENT_NICE:-10}")
# PONTOON_LOG_LEVEL for the worker as for the API and the relay: a name Celery knows, else INFO.
LOG_LEVEL=$(echo "${PONTOON_LOG_LEVEL:-INFO}" | tr '[:lower:]' '[:upper:]')
case "$LOG_LEVEL" in DEBUG|INFO|WARNING|ERROR|CRITICAL) ;; WARN) LOG_LEVEL=WARNING ;; FATAL) LOG_LEVEL=CRITICAL ;; *) LOG_LEVEL=INFO ;; esac
# The worker listens on this database's own queue only: stacks sharing a Redis never take each
# other's rounds (PONTOON_SETTLEMENT_QUEUE overrides the name derived from DATABASE_URL).
QUEUE=$("$BIN/pontoon" settle queue)
# Two worker processes at least: a verification of the audit log, one at a time, can hold one for
# minutes, and rounds keep settling on the other.
SETTLERS=${CELERY_CONCURRENCY:-$(( CORES > 2 ? CORES : 2 ))}
# What each process is started with: the same command again when the worker or the relay is restarted.
launch() {  # launch NAME (api, worker or relay)
  case $1 in
    api) start api "$LOG_DIR/api.log" "$BIN/gunicorn" -c ops/gunicorn.conf.py \
           --logger-class service.observability.gunicorn_logger.JsonLogger \
           "${PONTOON_WSGI_APP:-service.app:create_app()}" ;;
    # Celery's own console lines (its banner, "Warm shutdown") go to standard output, kept in
    # worker.out; its log, on standard error, is then JSON lines only, as the others are.
    worker) start_console_apart worker "$LOG_DIR/worker.log" "${NICE[@]}" "$BIN/celery" \
              -A service.observability.celery_worker worker --loglevel="$LOG_LEVEL" --concurrency="$SETTLERS" \
              --without-gossip --without-mingle --without-heartbeat -Q "$QUEUE" -n "pontoon-$PORT-$$@%h" ;;
    # The relay also asks, once a gaming day, for a verification of the whole audit log (a worker runs it).
    relay) start relay "$LOG_DIR/relay.log" "${NICE[@]}" "$BIN/python" -m service.observability.relay --verify-daily ;;
  esac
}

set -m
for name in api worker relay; do launch "$name"; done
set +m

ready=0
for _ in $(seq 1 300); do
  if "$BIN/python" -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('$URL/readyz', timeout=1).status != 200)" 2>/dev/null; then
    ready=1
    break
  fi
  for name in "${!pid_of[@]}"; do
    kill -0 "${pid_of[$name]}" 2>/dev/null || { echo "$name exited at start; see $LOG_DIR/$name.log" >&2; exit 1; }
  done
  [ "$signalled" = 1 ] && exit 0
  sleep 0.1
done
[ "$ready" = 1 ] || { echo "the API did not become ready; see $LOG_DIR/api.log" >&2; exit 1; }

echo "API on $URL (Ctrl-C stops everything)"
echo "Console on $URL/console/ (sign in as a staff account)"
say "  health     liveness http://127.0.0.1:$PONTOON_HEALTH_PORT/healthz   readiness $URL/readyz"
say "  metrics    $URL/metrics"
say "  logs       $LOG_DIR/{api,worker,relay}.log (JSON lines)"
say "  play       PONTOON_ADMIN_KEY=<admin key> $BIN/pontoon terminal --url $URL --rounds 200"

# Until a signal. The worker or the relay that dies is started again, after 0.5 s, then 1, 2, 4 and
# at most 5 s while it keeps dying (a process that ran for a minute starts again from 0.5 s): the
# API keeps answering meanwhile, and what they do waits in the outbox. The API that dies stops
# everything, and the status says so (a supervisor of the whole stack restarts it).
# The wait is on a short sleep, not on the processes: a signal that lands between the check and
# the wait would otherwise leave the wait to last until a process happened to exit. Times are
# counted in the loop's steps of a quarter of a second.
FIRST_DELAY=2 MAX_DELAY=20 SETTLED=240
declare -A delay=([worker]=$FIRST_DELAY [relay]=$FIRST_DELAY) due=() since=([worker]=0 [relay]=0)
step=0
status=0
while [ "$signalled" = 0 ]; do
  step=$((step + 1))
  kill -0 "${pid_of[api]}" 2>/dev/null || {
    echo "api stopped unexpectedly; stopping the stack (see $LOG_DIR/api.log)" >&2
    status=1
    break
  }
  for name in worker relay; do
    if [ -n "${due[$name]:-}" ]; then
      [ "$step" -lt "${due[$name]}" ] && continue
      set -m
      launch "$name"
      set +m
      unset "due[$name]"
      since[$name]=$step
      echo "$name started again" >&2
    elif ! kill -0 "${pid_of[$name]}" 2>/dev/null; then
      code=0
      wait "${pid_of[$name]}" 2>/dev/null || code=$?
      # Its children go with it: a pool process left behind would hold its batch's locks.
      kill -KILL -- "-${pid_of[$name]}" 2>/dev/null || true
      unset "pid_of[$name]"
      [ $((step - since[$name])) -ge "$SETTLED" ] && delay[$name]=$FIRST_DELAY
      echo "$name stopped unexpectedly (status $code); starting it again in $(printf '%d.%02d' $((delay[$name] / 4)) $((delay[$name] % 4 * 25))) s (see $LOG_DIR/$name.log)" >&2
      due[$name]=$((step + delay[$name]))
      delay[$name]=$(( delay[$name] * 2 > MAX_DELAY ? MAX_DELAY : delay[$name] * 2 ))
    fi
  done
  sleep 0.25 &
  wait "$!" 2>/dev/null || true
done
stop_all
exit "$status"
