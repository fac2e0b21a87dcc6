#!/usr/bin/env bash
# quickstart.sh -- the README's first command on a new machine.
#
#   scripts/quickstart.sh [demo options]      e.g. scripts/quickstart.sh --source mariadb
#
#   1. prepares the local PostgreSQL and MariaDB for log-based capture
#      (scripts/setup-databases.sh: idempotent, restarts a server only when a
#      setting changed),
#   2. builds every module and installs it in the local Maven repository
#      (mvn -B -ntp install -DskipTests; also benchmarks/target/benchmarks.jar), and
#   3. runs the replication demo (docs/demo.md) with the embedded defaults:
#      a primary and a replicate database on the local PostgreSQL (MariaDB to
#      PostgreSQL with --source mariadb), the replication server with its
#      embedded RSSD and stable queues, configured through its admin port with
#      the commands a DBA types, the replication agent, an OLTP workload with
#      live progress, and a comparison of every table of the replicate with the
#      primary. The demo's options are passed through (--duration, --clients,
#      --keep-running, --work-dir, --admin-port, ...; --help lists them).
#
# The exit code is the demo's: 0 when the replicate is identical to the
# primary, 1 when it differs, 2 when the demo could not run (the message says
# what is wrong and how to fix it).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
  sudo bash scripts/setup-databases.sh
else
  bash scripts/setup-databases.sh
fi

mvn -B -ntp install -DskipTests

JAR="$(ls demo/target/openrs-demo-*.jar 2>/dev/null | grep -v -e sources -e tests | head -1 || true)"
if [ -z "$JAR" ] || [ ! -d demo/target/lib ]; then
  echo "quickstart.sh: the demo was not built (demo/target); see the Maven output above" >&2
  exit 2
fi

cat <<'MSG'

OpenRS is built and the local databases are ready for log-based capture.
Tests: mvn -B verify    Docs: docs/ (the demo: docs/demo.md)
Starting the replication demo (Ctrl-C stops it and everything it started).

MSG

# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -cp "$JAR:demo/target/lib/*" io.openrs.demo.QuickstartDemo "$@"
