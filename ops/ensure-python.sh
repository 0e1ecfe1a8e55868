#!/usr/bin/env bash
# Makes `python3 -m venv` work on a Debian machine that lacks the venv module (Debian packages it
# apart from python3). The project needs Python 3.11, Debian 12's python3; say so where it is not.
set -euo pipefail
PYTHON="${1:-python3}"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

version=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ "$version" != "3.11" ]; then
  echo "$PYTHON is Python $version; the project needs 3.11 (make PYTHON=/path/to/python3.11 ...)" >&2
  exit 1
fi
if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || { echo "$PYTHON has no venv module; install it" >&2; exit 1; }
  echo "installing python3-venv"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
fi
