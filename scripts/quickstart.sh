#!/usr/bin/env bash
# quickstart.sh -- the README's first command on a new machine.
#
# Today (before the end-to-end issue lands) it does what exists:
#   1. prepares the local PostgreSQL and MariaDB for log-based capture
#      (scripts/setup-databases.sh: idempotent, restarts a server only when a
#      setting changed), and
#   2. builds every module and installs it in the local Maven repository,
#      including the JMH benchmarks jar (e2e/target/benchmarks.jar).
# It then says what can be run. The replication demo (server + agent + DSI on
# the local databases) will be started from here once it exists.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
  sudo bash scripts/setup-databases.sh
else
  bash scripts/setup-databases.sh
fi

mvn -B -ntp install -DskipTests

cat <<'MSG'

OpenRS is built and the local databases are ready for log-based capture.

  Tests:             mvn -B verify
  LTL benchmark:     java -jar e2e/target/benchmarks.jar LtlBenchmark -t 1
  Docs:              docs/ (start with docs/ltl.md)

The replication demo (agent -> server -> replicate) is not built yet; this
script will start it once the end-to-end issue lands.
MSG
