#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer where DATABASE_URL and BROKER_URL point (127.0.0.1 by
# default): on this machine, starts installed ones that have stopped and installs them from the
# Debian packages where they are missing; services elsewhere are left to their operators.
# PONTOON_STARTED_SERVICES: a file to list the services this run started (one per line), so that
# `make run` can stop them again when it stops.
set -euo pipefail
cd "$(dirname "$0")/.."

DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/pontoon}"
BROKER_URL="${BROKER_URL:-redis://127.0.0.1:6379/0}"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need_apt_update=1
apt_install() {
  if [ "$need_apt_update" = 1 ]; then as_root apt-get update -qq; need_apt_update=0; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
started() { if [ -n "${PONTOON_STARTED_SERVICES:-}" ]; then echo "$1" >>"$PONTOON_STARTED_SERVICES"; fi; }

# Whether each URL names this machine's default server, read as the service reads it (libpq's
# connection strings in any form, the broker's URL): "local" or "elsewhere".
PY=python3
[ -x .venv/bin/python ] && PY=.venv/bin/python
read -r db_place broker_place < <("$PY" - "$DATABASE_URL" "$BROKER_URL" <<'PYTHON'
import sys
from urllib.parse import urlsplit

LOCAL = {"", "127.0.0.1", "localhost", "::1"}
db_local = True   # unless the string says otherwise: one libpq refuses is the service's to report
try:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
except ImportError:   # no virtualenv yet: the defaults
    pass
else:
    try:
        db = conninfo_to_dict(sys.argv[1])
    except psycopg.ProgrammingError:
        pass
    else:
        host, port = str(db.get("host") or ""), str(db.get("port") or "5432")
        db_local = (host in LOCAL or host.startswith("/")) and port == "5432"
try:
    broker = urlsplit(sys.argv[2])
    broker_local = (broker.hostname or "") in LOCAL and (broker.port or 6379) == 6379
except ValueError:
    broker_local = True
print("local" if db_local else "elsewhere", "local" if broker_local else "elsewhere")
PYTHON
) || true
db_place=${db_place:-local} broker_place=${broker_place:-local}   # unread: the defaults
broker="127.0.0.1:6379"

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if [ "$db_place" = local ]; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "installing PostgreSQL"
    apt_install postgresql
  fi
  cluster=$(ls /etc/postgresql | head -n1)
  if ! pg_up; then
    echo "starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$cluster" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
    pg_up && started "postgresql $cluster"
  fi
  pg_up || { echo "PostgreSQL does not answer on 127.0.0.1:5432" >&2; exit 1; }
  # Local development trusts loopback connections for the postgres user, as CI does. -w: never
  # wait at a password prompt (Debian's default asks for one on 127.0.0.1).
  if ! psql -w -h 127.0.0.1 -U postgres -Atc 'select 1' >/dev/null 2>&1; then
    hba=$(ls /etc/postgresql/*/main/pg_hba.conf | head -n1)
    as_root sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
    as_root pg_ctlcluster --skip-systemctl-redirect "$cluster" main reload
  fi
fi   # a database elsewhere is the operator's to run: the API's /readyz says whether it answers

if [ "$broker_place" = local ]; then
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "installing Redis"
    apt_install redis-server
  fi
  if ! redis_up; then
    echo "starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
    for _ in $(seq 1 30); do redis_up && break; sleep 0.2; done
    redis_up && started "redis $broker"
  fi
  redis_up || { echo "Redis does not answer on 127.0.0.1:6379" >&2; exit 1; }
fi   # a broker elsewhere may ask for a password: the API's /readyz says whether it answers
