#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on 127.0.0.1: starts installed ones that have stopped,
# installs them from the Debian packages where they are missing.
set -euo pipefail

need_apt_update=1
apt_install() {
  if [ "$need_apt_update" = 1 ]; then apt-get update -qq; need_apt_update=0; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  echo "installing PostgreSQL"
  apt_install postgresql
fi
if ! pg_up; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
pg_up || { echo "PostgreSQL does not answer on 127.0.0.1:5432" >&2; exit 1; }
# Local development trusts loopback connections for the postgres user, as CI does.
if ! psql -h 127.0.0.1 -U postgres -Atc 'select 1' >/dev/null 2>&1; then
  hba=$(ls /etc/postgresql/*/main/pg_hba.conf | head -n1)
  sed -i '1i host all postgres 127.0.0.1/32 trust' "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main reload
fi

if ! command -v redis-server >/dev/null 2>&1; then
  echo "installing Redis"
  apt_install redis-server
fi
if ! redis_up; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis_up && break; sleep 0.2; done
fi
redis_up || { echo "Redis does not answer on 127.0.0.1:6379" >&2; exit 1; }
