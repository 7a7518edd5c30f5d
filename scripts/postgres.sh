#!/usr/bin/env bash
# Installs Debian's PostgreSQL server when its binaries are missing, for the export tests and bench, which run
# a throwaway cluster of their own (tests/js/pg-cluster.js); the package's own cluster is never used.
# Prints the directory of initdb/pg_ctl/postgres.
set -euo pipefail
find_bin() {
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  return 1
}
if ! find_bin >/dev/null; then
  echo "postgres: installing Debian's postgresql package (one-time)" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
fi
find_bin
