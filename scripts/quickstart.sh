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

What runs today (docs/repserver.md, docs/repagent.md, docs/admin-commands.md):
  Server:            OPENRS_ADMIN_PASSWORD=<choose one> bin/repserver -C etc/repserver.cfg
  Admin port:        psql -h 127.0.0.1 -p 11753 -U sa -d rssd     (then: admin who)
  Agent:             bin/repagent -C etc/repagent.cfg
The replicate side (DSI) and the end-to-end demo are not built yet; this
script will start the demo once they land.
MSG
