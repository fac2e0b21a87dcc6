#!/usr/bin/env bash
#
# setup-databases.sh -- prepare the local PostgreSQL and MariaDB servers for
# OpenRS: log-based change capture with Debezium 3.5 (PostgreSQL "pgoutput"
# logical decoding, MariaDB binlog connector) and the project's tests.
#
# The script is idempotent: every step first checks the current state and only
# changes what differs. A server is restarted only when a setting that needs a
# restart actually changed, so a second run changes nothing, restarts nothing
# and finishes in about two seconds. Every step prints one line saying what it
# checked and whether it changed something. Any setting that cannot be applied
# makes the script exit 1 with a message naming it and the command output.
#
# Needs root (it edits server configuration and starts/stops the servers).
# Missing packages are installed with apt-get (postgresql, mariadb-server).
# No systemd is needed: PostgreSQL is handled with pg_ctlcluster
# --skip-systemctl-redirect, MariaDB with start-stop-daemon / mariadb-admin.
# Only loopback addresses (unix sockets, 127.0.0.1, ::1) are used.
#
# PostgreSQL (cluster listening on $OPENRS_PG_PORT; created if no cluster exists)
#   * ALTER SYSTEM: wal_level=logical, max_replication_slots>=20,
#     max_wal_senders>=20 (restart only if the running value is insufficient)
#   * pg_hba.conf: unix-socket and 127.0.0.1 connections must work for normal,
#     logical-replication and physical-replication connections, and physical
#     replication from ::1 must be allowed. Missing rules are added as "trust"
#     lines in a block marked "# BEGIN openrs" / "# END openrs" at the top of
#     the file (original kept as pg_hba.conf.openrs-orig), followed by a reload.
#   * role openrs (password openrs; LOGIN REPLICATION SUPERUSER) and database
#     openrs_test owned by it
#
# MariaDB (server /usr/sbin/mariadbd, checked on 127.0.0.1:$OPENRS_MARIADB_PORT)
#   * drop-in /etc/mysql/mariadb.conf.d/90-openrs.cnf with server_id=1,
#     log_bin=<datadir>/mariadb-bin, binlog_format=ROW, binlog_row_image=FULL,
#     binlog_row_metadata=FULL, binlog_expire_logs_seconds=172800 (2 days),
#     local_infile=ON. If the server does not read that directory yet, an
#     "!includedir /etc/mysql/mariadb.conf.d/" line is appended to
#     /etc/mysql/my.cnf. Restart only if the file changed or the running
#     server's variables differ.
#   * users 'openrs'@'localhost' and 'openrs'@'127.0.0.1' (password openrs)
#     with ALL PRIVILEGES ON *.* (includes REPLICATION SLAVE and BINLOG
#     MONITOR, the 10.5+ name of REPLICATION CLIENT), database openrs_test
#
# MariaDB replicate instance (a second mariadbd on 127.0.0.1:$OPENRS_MARIADB_REPLICATE_PORT)
#   * the replicate of MariaDB -> MariaDB replication in the tests: a table keeps
#     its qualified name database.table on both sides, so primary and replicate
#     must be different servers. Own data directory
#     /var/lib/openrs-mariadb-replicate (created with mariadb-install-db),
#     socket /run/mysqld/openrs-replicate.sock, started with --no-defaults (it
#     reads no option file, so the main server's files do not change it): no
#     binary log, local_infile=ON, bound to 127.0.0.1 only.
#   * users 'openrs'@'localhost' and 'openrs'@'127.0.0.1' (password openrs)
#     with ALL PRIVILEGES ON *.*
#
# Environment overrides:
#   OPENRS_PG_PORT          PostgreSQL port (default 5432); selects the cluster
#   OPENRS_MARIADB_PORT     MariaDB port (default 3306); must be the port the
#                           server is configured with (it is not changed)
#   OPENRS_MARIADB_REPLICATE_PORT  port of the MariaDB replicate instance
#                           (default 3307)
#   OPENRS_DB_WAIT_SECONDS  how long to wait for a server to accept TCP
#                           connections after a start/restart (default 60)
#
# Usage: sudo bash scripts/setup-databases.sh   (no arguments, reads no stdin)

set -euo pipefail

PG_PORT=${OPENRS_PG_PORT:-5432}
MARIADB_PORT=${OPENRS_MARIADB_PORT:-3306}
MARIADB_REPLICATE_PORT=${OPENRS_MARIADB_REPLICATE_PORT:-3307}
WAIT_SECONDS=${OPENRS_DB_WAIT_SECONDS:-60}

readonly APP_USER=openrs
readonly APP_PASSWORD=openrs
readonly APP_DB=openrs_test

readonly PG_SOCKET_DIR=/var/run/postgresql
readonly PG_MIN_SLOTS=20
readonly PG_MIN_SENDERS=20
readonly PG_HBA_BEGIN="# BEGIN openrs: added by OpenRS scripts/setup-databases.sh (loopback access for tests and CDC)"
readonly PG_HBA_END="# END openrs"

readonly MARIADBD=/usr/sbin/mariadbd
readonly MARIADB_MAIN_CNF=/etc/mysql/my.cnf
readonly MARIADB_CONF_DIR=/etc/mysql/mariadb.conf.d
readonly MARIADB_CONF_FILE=$MARIADB_CONF_DIR/90-openrs.cnf
readonly MARIADB_SERVER_ID=1
readonly MARIADB_BINLOG_EXPIRE_SECONDS=172800 # 2 days
readonly REPLICATE_DATADIR=/var/lib/openrs-mariadb-replicate
readonly REPLICATE_SOCKET=/run/mysqld/openrs-replicate.sock
readonly REPLICATE_PIDFILE=/run/mysqld/openrs-replicate.pid

# Filled in by the PostgreSQL steps.
PG_VERSION=""
PG_CLUSTER=""
PG_ALTER_LOG="" # what ALTER SYSTEM did, quoted in error messages
# Set by the MariaDB steps.
MY_CONFIG_CHANGED=0

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

# log COMPONENT MESSAGE: one status line per check.
log() {
    printf '%s: %s\n' "$1" "$2"
}

# die MESSAGE [DETAIL...]: print an error (details indented) and exit 1.
die() {
    printf 'ERROR: %s\n' "$1" >&2
    shift
    local detail
    for detail in "$@"; do
        [[ -n $detail ]] && printf '%s\n' "$detail" | sed 's/^/    /' >&2
    done
    exit 1
}

# wait_until COMMAND...: run COMMAND every second until it succeeds or
# WAIT_SECONDS have passed (then return 1).
wait_until() {
    local deadline=$((SECONDS + WAIT_SECONDS))
    until "$@"; do
        if ((SECONDS >= deadline)); then
            return 1
        fi
        sleep 1
    done
}

check_environment() {
    if [[ ${EUID} -ne 0 ]]; then
        die "this script must run as root: it edits the PostgreSQL/MariaDB configuration and starts/restarts the servers." \
            "Re-run it as root, e.g.: sudo bash $0"
    fi
    [[ $PG_PORT =~ ^[0-9]+$ ]] || die "OPENRS_PG_PORT must be a port number, got '$PG_PORT'"
    [[ $MARIADB_PORT =~ ^[0-9]+$ ]] || die "OPENRS_MARIADB_PORT must be a port number, got '$MARIADB_PORT'"
    [[ $MARIADB_REPLICATE_PORT =~ ^[0-9]+$ ]] ||
        die "OPENRS_MARIADB_REPLICATE_PORT must be a port number, got '$MARIADB_REPLICATE_PORT'"
    [[ $MARIADB_REPLICATE_PORT != "$MARIADB_PORT" ]] ||
        die "OPENRS_MARIADB_REPLICATE_PORT must differ from OPENRS_MARIADB_PORT ($MARIADB_PORT)"
    [[ $WAIT_SECONDS =~ ^[0-9]+$ ]] || die "OPENRS_DB_WAIT_SECONDS must be a number of seconds, got '$WAIT_SECONDS'"
}

# Install the servers/clients if any of them is missing.
ensure_packages() {
    local missing=()
    if ! command -v psql >/dev/null || ! command -v pg_ctlcluster >/dev/null ||
        ! compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; then
        missing+=(postgresql)
    fi
    if ! command -v mariadb >/dev/null || ! command -v mariadb-admin >/dev/null ||
        [[ ! -x $MARIADBD ]]; then
        missing+=(mariadb-server)
    fi
    if ((${#missing[@]} == 0)); then
        log setup "postgresql and mariadb-server packages already installed"
        return
    fi
    log setup "installing ${missing[*]} with apt-get"
    local out
    if ! out=$(export DEBIAN_FRONTEND=noninteractive
        { apt-get update && apt-get install -y "${missing[@]}"; } </dev/null 2>&1); then
        die "apt-get install ${missing[*]} failed" "$(tail -n 30 <<<"$out")"
    fi
}

# ---------------------------------------------------------------------------
# PostgreSQL
# ---------------------------------------------------------------------------

# pg_query SQL: run SQL as the postgres superuser over the unix socket and
# print the unaligned result; exit 1 with the output on error.
pg_query() {
    local out
    if ! out=$(cd / && runuser -u postgres -- psql -X -w -q -At -v ON_ERROR_STOP=1 \
        -h "$PG_SOCKET_DIR" -p "$PG_PORT" -d postgres -c "$1" </dev/null 2>&1); then
        die "PostgreSQL: statement failed: $1" "$out"
    fi
    printf '%s\n' "$out"
}

# pg_try CONNINFO SQL: connect as the application user, print the output.
pg_try() {
    PGPASSWORD=$APP_PASSWORD PGCONNECT_TIMEOUT=5 \
        psql -X -w -At -d "$1" -c "$2" </dev/null 2>&1
}

pg_cluster_field() { # FIELD-NUMBER of the cluster on PG_PORT (pg_lsclusters)
    pg_lsclusters --no-header 2>/dev/null |
        awk -v port="$PG_PORT" -v f="$1" '$3 == port { print $f; exit }'
}

pg_accepts_tcp() {
    pg_isready -q -h 127.0.0.1 -p "$PG_PORT" -t 2 </dev/null
}

pg_wait_for_tcp() {
    if ! wait_until pg_accepts_tcp; then
        local status
        status=$(pg_isready -h 127.0.0.1 -p "$PG_PORT" 2>&1 || true)
        die "PostgreSQL: cluster $PG_VERSION/$PG_CLUSTER does not accept TCP connections on 127.0.0.1:$PG_PORT after ${WAIT_SECONDS}s" \
            "pg_isready: $status" "$(pg_log_tail)"
    fi
}

pg_log_tail() {
    local logfile
    logfile=$(pg_cluster_field 7)
    if [[ -n $logfile && -r $logfile ]]; then
        printf 'last lines of %s:\n' "$logfile"
        tail -n 15 "$logfile"
    fi
}

# Find (or create) the cluster that uses PG_PORT and make sure it is running.
pg_ensure_running() {
    PG_VERSION=$(pg_cluster_field 1)
    PG_CLUSTER=$(pg_cluster_field 2)
    if [[ -z $PG_VERSION ]]; then
        if [[ -n $(pg_lsclusters --no-header 2>/dev/null) ]]; then
            die "PostgreSQL: no cluster listens on port $PG_PORT (OPENRS_PG_PORT); existing clusters:" \
                "$(pg_lsclusters 2>&1)"
        fi
        PG_VERSION=$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -n | tail -n 1)
        PG_CLUSTER=main
        log postgresql "no cluster found, creating $PG_VERSION/$PG_CLUSTER on port $PG_PORT"
        local out
        if ! out=$(pg_createcluster --port "$PG_PORT" "$PG_VERSION" "$PG_CLUSTER" </dev/null 2>&1); then
            die "PostgreSQL: pg_createcluster $PG_VERSION $PG_CLUSTER failed" "$out"
        fi
    fi

    local status
    status=$(pg_cluster_field 4)
    if [[ $status == online* ]]; then
        log postgresql "cluster $PG_VERSION/$PG_CLUSTER (port $PG_PORT) already running"
    else
        log postgresql "cluster $PG_VERSION/$PG_CLUSTER (port $PG_PORT) is $status, starting it"
        install -d -o postgres -g postgres -m 2775 "$PG_SOCKET_DIR"
        local out
        if ! out=$(pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" start </dev/null 2>&1); then
            die "PostgreSQL: could not start cluster $PG_VERSION/$PG_CLUSTER" "$out" "$(pg_log_tail)"
        fi
    fi
    pg_wait_for_tcp
}

pg_restart() {
    local out
    if ! out=$(pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" restart </dev/null 2>&1); then
        die "PostgreSQL: restart of cluster $PG_VERSION/$PG_CLUSTER failed" "$out" \
            "ALTER SYSTEM log:" "$PG_ALTER_LOG" "$(pg_log_tail)"
    fi
    pg_wait_for_tcp
}

# pg_value_ok NAME VALUE: does VALUE satisfy our requirement for NAME?
pg_value_ok() {
    case $1 in
        wal_level) [[ $2 == logical ]] ;;
        max_replication_slots) [[ $2 =~ ^[0-9]+$ ]] && (($2 >= PG_MIN_SLOTS)) ;;
        max_wal_senders) [[ $2 =~ ^[0-9]+$ ]] && (($2 >= PG_MIN_SENDERS)) ;;
        *) return 1 ;;
    esac
}

# Value NAME will have after the next restart: the last valid occurrence in the
# configuration files (postgresql.auto.conf is read last), else the default.
pg_configured_value() {
    pg_query "SELECT coalesce(
        (SELECT setting FROM pg_file_settings
          WHERE lower(name) = '$1' AND error IS NULL ORDER BY seqno DESC LIMIT 1),
        (SELECT boot_val FROM pg_settings WHERE name = '$1'))"
}

# wal_level / max_replication_slots / max_wal_senders (all need a restart).
pg_configure_settings() {
    local spec name want running configured restart_needed=0
    for spec in wal_level=logical "max_replication_slots=$PG_MIN_SLOTS" "max_wal_senders=$PG_MIN_SENDERS"; do
        name=${spec%%=*}
        want=${spec#*=}
        running=$(pg_query "SELECT setting FROM pg_settings WHERE name = '$name'")
        configured=$(pg_configured_value "$name")

        if ! pg_value_ok "$name" "$configured"; then
            # Keep a sufficient running value (e.g. 32 senders) instead of lowering it.
            pg_value_ok "$name" "$running" && want=$running
            pg_query "ALTER SYSTEM SET $name = '$want'" >/dev/null
            PG_ALTER_LOG+="ALTER SYSTEM SET $name = '$want': ok (configured value was '$configured', running value '$running')"$'\n'
            if pg_value_ok "$name" "$running"; then
                log postgresql "$name is $running but '$configured' was configured for the next start; set $name=$want (no restart needed)"
                continue
            fi
            log postgresql "set $name=$want (was $running), restart needed"
            restart_needed=1
        elif pg_value_ok "$name" "$running"; then
            log postgresql "$name already $running"
        else
            log postgresql "$name is $running, '$configured' is configured but not active yet, restart needed"
            restart_needed=1
        fi
    done

    if ((restart_needed)); then
        log postgresql "restarting cluster $PG_VERSION/$PG_CLUSTER to apply the settings"
        pg_restart
    elif [[ -n $PG_ALTER_LOG ]]; then
        # Only the file value changed (running value already fine): reload so
        # pg_settings.pending_restart reflects the new file contents.
        pg_query "SELECT pg_reload_conf()" >/dev/null
        log postgresql "running values already sufficient, reloaded configuration instead of restarting"
    else
        log postgresql "no setting needing a restart changed, not restarting"
    fi

    for name in wal_level max_replication_slots max_wal_senders; do
        running=$(pg_query "SELECT setting FROM pg_settings WHERE name = '$name'")
        if ! pg_value_ok "$name" "$running"; then
            configured=$(pg_configured_value "$name")
            die "PostgreSQL: $name is '$running' after restart, expected $(pg_requirement "$name") (configured value: '$configured')" \
                "ALTER SYSTEM log:" "${PG_ALTER_LOG:-(no ALTER SYSTEM was needed)}" "$(pg_log_tail)"
        fi
    done
}

pg_requirement() {
    case $1 in
        wal_level) printf "'logical'" ;;
        max_replication_slots) printf '>= %s' "$PG_MIN_SLOTS" ;;
        max_wal_senders) printf '>= %s' "$PG_MIN_SENDERS" ;;
    esac
}

# pg_scram_matches VERIFIER PASSWORD: does a SCRAM-SHA-256 verifier (as stored
# in pg_authid.rolpassword) belong to PASSWORD? Returns 2 if it cannot tell.
pg_scram_matches() {
    local verifier=$1 password=$2 iter salt_hex stored_hex salted client_key
    # SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, all base64
    # shellcheck disable=SC2016 # literal dollar signs, not expansions
    local re='^SCRAM-SHA-256\$([0-9]+):([^$]+)\$([^:]+):.+$'
    [[ $verifier =~ $re ]] || return 2
    command -v openssl >/dev/null || return 2
    iter=${BASH_REMATCH[1]}
    salt_hex=$(base64 -d <<<"${BASH_REMATCH[2]}" | od -An -v -tx1 | tr -d ' \n')
    stored_hex=$(base64 -d <<<"${BASH_REMATCH[3]}" | od -An -v -tx1 | tr -d ' \n')
    salted=$(openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt "pass:$password" \
        -kdfopt "hexsalt:$salt_hex" -kdfopt "iter:$iter" PBKDF2 2>/dev/null | tr -d ':\n' | tr 'A-F' 'a-f') ||
        return 2
    [[ ${#salted} -eq 64 ]] || return 2
    client_key=$(printf 'Client Key' | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$salted" -binary |
        sha256sum | cut -d' ' -f1) || return 2
    [[ $client_key == "$stored_hex" ]]
}

pg_ensure_role_and_db() {
    local attrs
    attrs=$(pg_query "SELECT rolcanlogin::int::text || rolreplication::int::text || rolsuper::int::text
                      FROM pg_roles WHERE rolname = '$APP_USER'")
    if [[ -z $attrs ]]; then
        pg_query "CREATE ROLE $APP_USER WITH LOGIN REPLICATION SUPERUSER PASSWORD '$APP_PASSWORD'" >/dev/null
        log postgresql "created role $APP_USER (LOGIN REPLICATION SUPERUSER)"
    else
        if [[ $attrs == 111 ]]; then
            log postgresql "role $APP_USER already exists with LOGIN REPLICATION SUPERUSER"
        else
            pg_query "ALTER ROLE $APP_USER WITH LOGIN REPLICATION SUPERUSER" >/dev/null
            log postgresql "role $APP_USER existed, granted LOGIN REPLICATION SUPERUSER"
        fi
        local stored expected rc=0
        stored=$(pg_query "SELECT coalesce(rolpassword, '') FROM pg_authid WHERE rolname = '$APP_USER'")
        if [[ $stored == md5* ]]; then
            expected="md5$(printf '%s%s' "$APP_PASSWORD" "$APP_USER" | md5sum | cut -d' ' -f1)"
            [[ $stored == "$expected" ]] || rc=1
        elif [[ -n $stored ]]; then
            pg_scram_matches "$stored" "$APP_PASSWORD" || rc=$?
        else
            rc=1
        fi
        case $rc in
            0) log postgresql "role $APP_USER password already '$APP_PASSWORD'" ;;
            1) pg_query "ALTER ROLE $APP_USER PASSWORD '$APP_PASSWORD'" >/dev/null
               log postgresql "role $APP_USER password was different or unset, set it to '$APP_PASSWORD'" ;;
            *) pg_query "ALTER ROLE $APP_USER PASSWORD '$APP_PASSWORD'" >/dev/null
               log postgresql "role $APP_USER password could not be verified (openssl missing?), set it to '$APP_PASSWORD'" ;;
        esac
    fi

    local owner
    owner=$(pg_query "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$APP_DB'")
    if [[ -z $owner ]]; then
        pg_query "CREATE DATABASE $APP_DB OWNER $APP_USER" >/dev/null
        log postgresql "created database $APP_DB owned by $APP_USER"
    elif [[ $owner != "$APP_USER" ]]; then
        pg_query "ALTER DATABASE $APP_DB OWNER TO $APP_USER" >/dev/null
        log postgresql "database $APP_DB existed (owner $owner), changed owner to $APP_USER"
    else
        log postgresql "database $APP_DB already exists, owned by $APP_USER"
    fi
}

# Connection checks for pg_hba.conf: "label|conninfo|sql|rule that allows it".
pg_hba_checks() {
    local base="port=$PG_PORT user=$APP_USER dbname=$APP_DB"
    local local_="host=$PG_SOCKET_DIR $base" v4="host=127.0.0.1 $base" v6="host=::1 $base"
    printf '%s\n' \
        "unix-socket normal|$local_|SELECT 1|$(pg_hba_line local all all '')" \
        "unix-socket logical replication|$local_ replication=database|IDENTIFY_SYSTEM|$(pg_hba_line local all all '')" \
        "unix-socket physical replication|$local_ replication=true|IDENTIFY_SYSTEM|$(pg_hba_line local replication all '')" \
        "127.0.0.1 normal|$v4|SELECT 1|$(pg_hba_line host all all 127.0.0.1/32)" \
        "127.0.0.1 logical replication|$v4 replication=database|IDENTIFY_SYSTEM|$(pg_hba_line host all all 127.0.0.1/32)" \
        "127.0.0.1 physical replication|$v4 replication=true|IDENTIFY_SYSTEM|$(pg_hba_line host replication all 127.0.0.1/32)"
    # ::1 can only be tried for real when the server listens there
    # (listen_addresses); otherwise pg_hba_ipv6_rule_present checks the file.
    if pg_isready -q -h ::1 -p "$PG_PORT" -t 2 </dev/null; then
        printf '%s\n' "::1 physical replication|$v6 replication=true|IDENTIFY_SYSTEM|$(pg_hba_line host replication all ::1/128)"
    fi
}

pg_hba_line() { # TYPE DATABASE USER ADDRESS
    printf '%-7s %-15s %-15s %-23s %s' "$1" "$2" "$3" "$4" trust
}

# Is physical replication from ::1 allowed by some rule (static check)?
pg_hba_ipv6_rule_present() {
    local count
    count=$(pg_query "SELECT count(*) FROM pg_hba_file_rules
        WHERE error IS NULL AND type IN ('host', 'hostnossl')
          AND 'replication' = ANY(database) AND user_name && ARRAY['all', '$APP_USER']
          AND address = '::1' AND netmask = 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'
          AND auth_method IN ('trust', 'scram-sha-256', 'md5', 'password')")
    [[ $count -gt 0 ]]
}

# Run the connection checks; print the rules needed for the failing ones to
# stdout and a description of the failures to fd 3.
pg_hba_run_checks() {
    local label conninfo sql rule out
    while IFS='|' read -r label conninfo sql rule; do
        if out=$(pg_try "$conninfo" "$sql"); then
            continue
        fi
        if ! grep -qE 'pg_hba\.conf|authentication failed' <<<"$out"; then
            die "PostgreSQL: $label connection as $APP_USER failed for a reason pg_hba.conf cannot fix" \
                "psql \"$conninfo\" -c \"$sql\":" "$out"
        fi
        printf '%s\n' "$rule"
        printf '%s: %s\n' "$label" "$out" >&3
    done < <(pg_hba_checks)
    if ! pg_isready -q -h ::1 -p "$PG_PORT" -t 2 </dev/null && ! pg_hba_ipv6_rule_present; then
        pg_hba_line host replication all ::1/128
        printf '\n'
        printf '::1 physical replication: no pg_hba.conf rule (server does not listen on ::1, checked the file)\n' >&3
    fi
}

# Put RULE... into the managed block at the top of pg_hba.conf.
pg_hba_add_rules() {
    local hba=$1 tmp
    shift
    tmp=$(mktemp)
    {
        printf '%s\n' "$PG_HBA_BEGIN"
        {
            sed -n "/^# BEGIN openrs/,/^# END openrs/{/^#/d;p}" "$hba"
            printf '%s\n' "$@"
        } | awk 'NF && !seen[$0]++'
        printf '%s\n' "$PG_HBA_END"
        sed '/^# BEGIN openrs/,/^# END openrs/d' "$hba"
    } >"$tmp"
    [[ -e $hba.openrs-orig ]] || cp -p "$hba" "$hba.openrs-orig"
    cat "$tmp" >"$hba" # keeps owner and mode of the original file
    rm -f "$tmp"
}

pg_ensure_hba() {
    local hba failures needed
    hba=$(pg_query "SHOW hba_file")
    needed=$(pg_hba_run_checks 3>/dev/null | awk 'NF && !seen[$0]++')
    if [[ -z $needed ]]; then
        log postgresql "pg_hba.conf already allows normal + replication connections via unix socket and 127.0.0.1, and replication from ::1"
        return
    fi
    failures=$(pg_hba_run_checks 3>&1 >/dev/null)
    local rules=()
    mapfile -t rules <<<"$needed"
    pg_hba_add_rules "$hba" "${rules[@]}"
    log postgresql "added to $hba: $(printf '%s; ' "${rules[@]}" | tr -s ' ')reloading (no restart)"

    pg_query "SELECT pg_reload_conf()" >/dev/null
    local errors
    errors=$(pg_query "SELECT line_number || ': ' || error FROM pg_hba_file_rules WHERE error IS NOT NULL")
    [[ -z $errors ]] || die "PostgreSQL: $hba has errors after editing it, reload ignored it" "$errors"

    # The reload is asynchronous: give it a few seconds before judging.
    local _
    for _ in 1 2 3 4 5; do
        needed=$(pg_hba_run_checks 3>/dev/null | awk 'NF')
        [[ -z $needed ]] && break
        sleep 1
    done
    if [[ -n $needed ]]; then
        die "PostgreSQL: connections are still rejected after adding pg_hba.conf rules and reloading" \
            "still missing: $needed" "before the change:" "$failures" \
            "now: $(pg_hba_run_checks 3>&1 >/dev/null)"
    fi
}

pg_verify() {
    local conninfo="host=127.0.0.1 port=$PG_PORT user=$APP_USER dbname=$APP_DB" out
    out=$(pg_try "$conninfo" "SHOW wal_level") ||
        die "PostgreSQL: cannot connect as $APP_USER to $APP_DB on 127.0.0.1:$PG_PORT" "$out"
    [[ $out == logical ]] ||
        die "PostgreSQL: SHOW wal_level returns '$out' over 127.0.0.1, expected 'logical'" \
            "ALTER SYSTEM log:" "$PG_ALTER_LOG"
    out=$(pg_try "$conninfo replication=database" "IDENTIFY_SYSTEM") ||
        die "PostgreSQL: logical replication connection as $APP_USER to $APP_DB on 127.0.0.1:$PG_PORT fails" "$out"
    log postgresql "verified: wal_level=logical, $APP_USER can connect and open a replication connection on 127.0.0.1:$PG_PORT"
}

setup_postgresql() {
    pg_ensure_running
    pg_configure_settings
    pg_ensure_role_and_db
    pg_ensure_hba
    pg_verify
}

# ---------------------------------------------------------------------------
# MariaDB
# ---------------------------------------------------------------------------

# my_query SQL: run SQL as root over the unix socket, print tab-separated rows.
my_query() {
    local out
    if ! out=$(mariadb -uroot --protocol=socket -N -B -e "$1" </dev/null 2>&1); then
        die "MariaDB: statement failed: $1" "$out"
    fi
    printf '%s\n' "$out"
}

# The pids of the main mariadbd (every mariadbd but the replicate instance).
my_main_pids() {
    local pid
    for pid in $(pgrep -x mariadbd || true); do
        tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "--datadir=$REPLICATE_DATADIR" ||
            printf '%s\n' "$pid"
    done
}

my_is_running() {
    [[ -n $(my_main_pids) ]]
}

my_is_stopped() {
    ! my_is_running
}

my_accepts_tcp() {
    mariadb-admin --protocol=tcp -h 127.0.0.1 -P "$MARIADB_PORT" --connect-timeout=2 ping \
        </dev/null >/dev/null 2>&1
}

my_log_tail() {
    local logfile
    logfile=$("$MARIADBD" --print-defaults 2>/dev/null | tr ' ' '\n' | sed -n 's/^--log[-_]error=//p' | tail -n 1)
    if [[ -n $logfile && -r $logfile ]]; then
        printf 'last lines of %s:\n' "$logfile"
        tail -n 15 "$logfile"
    fi
}

my_accepts_socket() {
    mariadb-admin -uroot --protocol=socket --connect-timeout=2 ping </dev/null >/dev/null 2>&1
}

# Start mariadbd unless it is running, then wait until it answers on its socket.
my_start() {
    install -d -o mysql -g mysql -m 0755 /run/mysqld
    local out
    # start-stop-daemon would take the replicate instance for this one (same executable):
    # my_is_running tells them apart, and the pid file named here never exists, so it starts.
    if ! my_is_running && ! out=$(start-stop-daemon --start --background \
        --pidfile /run/mysqld/openrs-main-never.pid --exec "$MARIADBD" </dev/null 2>&1); then
        die "MariaDB: start-stop-daemon could not start $MARIADBD" "$out" "$(my_log_tail)"
    fi
    if ! wait_until my_accepts_socket; then
        die "MariaDB: server did not come up (no answer on its unix socket) within ${WAIT_SECONDS}s" "$(my_log_tail)"
    fi
}

# Check the server's port against OPENRS_MARIADB_PORT and wait for TCP.
my_wait_for_tcp() {
    local port
    port=$(my_query "SELECT @@port")
    [[ $port == "$MARIADB_PORT" ]] ||
        die "MariaDB: server listens on port $port, but OPENRS_MARIADB_PORT is $MARIADB_PORT (this script does not change the port)"
    if ! wait_until my_accepts_tcp; then
        die "MariaDB: server does not accept TCP connections on 127.0.0.1:$MARIADB_PORT after ${WAIT_SECONDS}s" \
            "$(my_log_tail)"
    fi
}

my_stop() {
    local out
    if ! out=$(mariadb-admin -uroot --protocol=socket shutdown </dev/null 2>&1); then
        die "MariaDB: mariadb-admin shutdown failed" "$out"
    fi
    wait_until my_is_stopped ||
        die "MariaDB: $MARIADBD still running ${WAIT_SECONDS}s after mariadb-admin shutdown"
}

my_ensure_running() {
    if my_is_running; then
        log mariadb "server already running"
    else
        log mariadb "server not running, starting it"
    fi
    # my_start is a no-op for a running server but also waits for one that is
    # still starting up.
    my_start
    my_wait_for_tcp
}

# Settings we need: "variable=value" as reported by SHOW GLOBAL VARIABLES.
my_wanted_variables() {
    local datadir=$1
    printf '%s\n' \
        log_bin=ON \
        "log_bin_basename=${datadir%/}/mariadb-bin" \
        binlog_format=ROW \
        binlog_row_image=FULL \
        binlog_row_metadata=FULL \
        "server_id=$MARIADB_SERVER_ID" \
        "binlog_expire_logs_seconds=$MARIADB_BINLOG_EXPIRE_SECONDS" \
        local_infile=ON
}

my_config_content() {
    local datadir=$1
    cat <<EOF
# Managed by OpenRS scripts/setup-databases.sh -- re-run the script instead of
# editing this file. Binary log settings for Debezium's MariaDB connector.
[mysqld]
server_id                  = $MARIADB_SERVER_ID
log_bin                    = ${datadir%/}/mariadb-bin
binlog_format              = ROW
binlog_row_image           = FULL
binlog_row_metadata        = FULL
binlog_expire_logs_seconds = $MARIADB_BINLOG_EXPIRE_SECONDS
local_infile               = ON
EOF
}

# my_config_check: does mariadbd read our drop-in, and does no later option
# file override it? Compares the last occurrence of each of our options in
# "mariadbd --print-defaults" (option names normalised to underscores).
# Returns 1 if our file is not read at all; exits via die on an override.
my_config_check() {
    local defaults ours option effective
    defaults=$("$MARIADBD" --print-defaults 2>&1 | tr ' ' '\n' |
        sed -n 's/^--\([^=]*\)=\(.*\)$/\1=\2/p' | awk -F= '{ gsub("-", "_", $1); print }' OFS==)
    ours=$(sed -n 's/^\([a-z_]*\) *= *\(.*\)$/\1=\2/p' "$MARIADB_CONF_FILE")
    while IFS= read -r option; do
        grep -qxF -- "$option" <<<"$defaults" || return 1
    done <<<"$ours"
    while IFS= read -r option; do
        effective=$(grep "^${option%%=*}=" <<<"$defaults" | tail -n 1)
        [[ $effective == "$option" ]] ||
            die "MariaDB: $option from $MARIADB_CONF_FILE is overridden by a later option file ($effective)" \
                "mariadbd --print-defaults:" "$("$MARIADBD" --print-defaults 2>&1)"
    done <<<"$ours"
}

# Write the drop-in if its content differs and make sure mariadbd reads it.
# Sets MY_CONFIG_CHANGED=1 when a configuration file was modified.
my_write_config() {
    local content=$1
    if [[ -f $MARIADB_CONF_FILE ]] && cmp -s "$MARIADB_CONF_FILE" <(printf '%s\n' "$content"); then
        log mariadb "$MARIADB_CONF_FILE already up to date"
    else
        mkdir -p "$MARIADB_CONF_DIR"
        printf '%s\n' "$content" >"$MARIADB_CONF_FILE.tmp"
        chmod 0644 "$MARIADB_CONF_FILE.tmp"
        mv "$MARIADB_CONF_FILE.tmp" "$MARIADB_CONF_FILE"
        log mariadb "wrote $MARIADB_CONF_FILE"
        MY_CONFIG_CHANGED=1
    fi

    if my_config_check; then
        log mariadb "mariadbd reads $MARIADB_CONF_FILE and nothing overrides it (checked with mariadbd --print-defaults)"
        return
    fi
    local main_cnf
    main_cnf=$(readlink -f "$MARIADB_MAIN_CNF")
    if ! grep -qE "^!includedir +$MARIADB_CONF_DIR/?\$" "$main_cnf" 2>/dev/null; then
        printf '\n# Added by OpenRS scripts/setup-databases.sh: read drop-in files\n!includedir %s/\n' \
            "$MARIADB_CONF_DIR" >>"$main_cnf"
        log mariadb "mariadbd did not read $MARIADB_CONF_DIR, appended '!includedir $MARIADB_CONF_DIR/' to $main_cnf"
        MY_CONFIG_CHANGED=1
    fi
    my_config_check || die "MariaDB: mariadbd does not pick up the settings of $MARIADB_CONF_FILE" \
        "mariadbd --print-defaults:" "$("$MARIADBD" --print-defaults 2>&1)"
}

# Print "variable=running-value" for every variable that differs from what we want.
my_variable_mismatches() {
    local datadir=$1 current want name
    current=$(my_query "SHOW GLOBAL VARIABLES WHERE Variable_name IN
        ('log_bin', 'log_bin_basename', 'binlog_format', 'binlog_row_image', 'binlog_row_metadata',
         'server_id', 'binlog_expire_logs_seconds', 'local_infile')" | tr '\t' '=')
    while IFS= read -r want; do
        name=${want%%=*}
        if ! grep -qxF -- "$want" <<<"$current"; then
            printf '%s=%s\n' "$name" "$(sed -n "s/^$name=//p" <<<"$current")"
        fi
    done < <(my_wanted_variables "$datadir")
}

my_configure_binlog() {
    local datadir content mismatches
    datadir=$(my_query "SELECT @@datadir")
    content=$(my_config_content "$datadir")
    my_write_config "$content"
    mismatches=$(my_variable_mismatches "$datadir")

    local want name
    while IFS= read -r want; do
        name=${want%%=*}
        if grep -q "^$name=" <<<"$mismatches"; then
            log mariadb "$name is '$(sed -n "s/^$name=//p" <<<"$mismatches")', want '${want#*=}'"
        else
            log mariadb "$name already ${want#*=}"
        fi
    done < <(my_wanted_variables "$datadir")

    if ((!MY_CONFIG_CHANGED)) && [[ -z $mismatches ]]; then
        log mariadb "configuration unchanged and server variables match, not restarting"
        return
    fi
    log mariadb "restarting server ($( ((MY_CONFIG_CHANGED)) && printf 'configuration changed' || printf 'variables differ'))"
    my_stop
    my_start
    my_wait_for_tcp

    mismatches=$(my_variable_mismatches "$datadir")
    if [[ -n $mismatches ]]; then
        local first=${mismatches%%$'\n'*}
        name=${first%%=*}
        die "MariaDB: $name is '${first#*=}' after restart, expected '$(my_wanted_variables "$datadir" | sed -n "s/^$name=//p")'" \
            "all differing variables:" "$mismatches" \
            "mariadbd --print-defaults:" "$("$MARIADBD" --print-defaults 2>&1)" "$(my_log_tail)"
    fi
    log mariadb "server restarted, binary log settings active"
}

my_ensure_users_and_db() {
    local host exists grants
    for host in localhost 127.0.0.1; do
        exists=$(my_query "SELECT COUNT(*) FROM mysql.user WHERE User = '$APP_USER' AND Host = '$host'")
        if [[ $exists == 0 ]]; then
            my_query "CREATE USER '$APP_USER'@'$host' IDENTIFIED BY '$APP_PASSWORD'" >/dev/null
            log mariadb "created user '$APP_USER'@'$host'"
        else
            exists=$(my_query "SELECT COUNT(*) FROM mysql.user WHERE User = '$APP_USER' AND Host = '$host'
                AND plugin IN ('mysql_native_password', '') AND authentication_string = PASSWORD('$APP_PASSWORD')")
            if [[ $exists == 1 ]]; then
                log mariadb "user '$APP_USER'@'$host' already exists with password '$APP_PASSWORD'"
            else
                my_query "ALTER USER '$APP_USER'@'$host' IDENTIFIED BY '$APP_PASSWORD'" >/dev/null
                log mariadb "user '$APP_USER'@'$host' existed with another password/plugin, set password '$APP_PASSWORD'"
            fi
        fi
        grants=$(my_query "SHOW GRANTS FOR '$APP_USER'@'$host'")
        if grep -q '^GRANT ALL PRIVILEGES ON \*\.\* TO' <<<"$grants"; then
            log mariadb "user '$APP_USER'@'$host' already has ALL PRIVILEGES ON *.*"
        else
            # ALL PRIVILEGES includes REPLICATION SLAVE and BINLOG MONITOR (checked in my_verify).
            my_query "GRANT ALL PRIVILEGES ON *.* TO '$APP_USER'@'$host'" >/dev/null
            log mariadb "granted ALL PRIVILEGES ON *.* (incl. REPLICATION SLAVE, BINLOG MONITOR) to '$APP_USER'@'$host'"
        fi
    done

    exists=$(my_query "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '$APP_DB'")
    if [[ $exists == 0 ]]; then
        my_query "CREATE DATABASE $APP_DB" >/dev/null
        log mariadb "created database $APP_DB"
    else
        log mariadb "database $APP_DB already exists"
    fi
}

my_verify() {
    local out host privs
    if ! out=$(mariadb --protocol=tcp -h 127.0.0.1 -P "$MARIADB_PORT" -u"$APP_USER" -p"$APP_PASSWORD" \
        -N -B -D "$APP_DB" -e "SELECT @@log_bin, @@binlog_format, @@binlog_row_image; SHOW BINARY LOGS" \
        </dev/null 2>&1); then
        die "MariaDB: $APP_USER cannot connect to $APP_DB on 127.0.0.1:$MARIADB_PORT or read the binary log list" "$out"
    fi
    [[ $(head -n 1 <<<"$out") == $'1\tROW\tFULL' ]] ||
        die "MariaDB: expected log_bin=1, binlog_format=ROW, binlog_row_image=FULL for $APP_USER over TCP, got:" "$out"
    for host in localhost 127.0.0.1; do
        privs=$(my_query "SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES
            WHERE GRANTEE = \"'$APP_USER'@'$host'\" AND PRIVILEGE_TYPE IN ('REPLICATION SLAVE', 'BINLOG MONITOR')")
        [[ $privs == 2 ]] || die "MariaDB: '$APP_USER'@'$host' lacks REPLICATION SLAVE and/or BINLOG MONITOR" \
            "$(my_query "SHOW GRANTS FOR '$APP_USER'@'$host'")"
    done
    log mariadb "verified: log_bin=ON, binlog_format=ROW, binlog_row_image=FULL; $APP_USER has REPLICATION SLAVE + BINLOG MONITOR and can list binlogs on 127.0.0.1:$MARIADB_PORT"
}

setup_mariadb() {
    my_ensure_running
    my_configure_binlog
    my_ensure_users_and_db
    my_verify
}

# ---------------------------------------------------------------------------
# MariaDB replicate instance
# ---------------------------------------------------------------------------

rep_query() {
    local out
    if ! out=$(mariadb -uroot --protocol=socket -S "$REPLICATE_SOCKET" -N -B -e "$1" </dev/null 2>&1); then
        die "MariaDB replicate instance: statement failed: $1" "$out"
    fi
    printf '%s\n' "$out"
}

rep_is_running() {
    start-stop-daemon --status --pidfile "$REPLICATE_PIDFILE" --exec "$MARIADBD" >/dev/null 2>&1
}

rep_accepts_socket() {
    mariadb-admin -uroot --protocol=socket -S "$REPLICATE_SOCKET" --connect-timeout=2 ping \
        </dev/null >/dev/null 2>&1
}

rep_accepts_tcp() {
    mariadb-admin --protocol=tcp -h 127.0.0.1 -P "$MARIADB_REPLICATE_PORT" --connect-timeout=2 \
        -u"$APP_USER" -p"$APP_PASSWORD" ping </dev/null >/dev/null 2>&1
}

rep_log_tail() {
    [[ -r $REPLICATE_DATADIR/error.log ]] &&
        printf 'last lines of %s:\n%s\n' "$REPLICATE_DATADIR/error.log" "$(tail -n 15 "$REPLICATE_DATADIR/error.log")"
}

rep_ensure_datadir() {
    if [[ -d $REPLICATE_DATADIR/mysql ]]; then
        log mariadb-replicate "data directory $REPLICATE_DATADIR already initialised"
        return
    fi
    local out
    install -d -o mysql -g mysql -m 0700 "$REPLICATE_DATADIR"
    if ! out=$(mariadb-install-db --no-defaults --user=mysql --datadir="$REPLICATE_DATADIR" \
        --auth-root-authentication-method=socket --skip-test-db </dev/null 2>&1); then
        die "MariaDB replicate instance: mariadb-install-db failed for $REPLICATE_DATADIR" "$(tail -n 20 <<<"$out")"
    fi
    log mariadb-replicate "initialised data directory $REPLICATE_DATADIR"
}

rep_ensure_running() {
    if rep_is_running; then
        log mariadb-replicate "instance already running (pid file $REPLICATE_PIDFILE)"
    else
        install -d -o mysql -g mysql -m 0755 /run/mysqld
        local out
        if ! out=$(start-stop-daemon --start --background --pidfile "$REPLICATE_PIDFILE" \
            --exec "$MARIADBD" -- --no-defaults --user=mysql --datadir="$REPLICATE_DATADIR" \
            --port="$MARIADB_REPLICATE_PORT" --bind-address=127.0.0.1 --socket="$REPLICATE_SOCKET" \
            --pid-file="$REPLICATE_PIDFILE" --log-error="$REPLICATE_DATADIR/error.log" \
            --local-infile=ON --innodb-buffer-pool-size=128M </dev/null 2>&1); then
            die "MariaDB replicate instance: could not start $MARIADBD" "$out" "$(rep_log_tail)"
        fi
        log mariadb-replicate "started on 127.0.0.1:$MARIADB_REPLICATE_PORT"
    fi
    wait_until rep_accepts_socket ||
        die "MariaDB replicate instance: no answer on $REPLICATE_SOCKET within ${WAIT_SECONDS}s" "$(rep_log_tail)"
    local port
    port=$(rep_query "SELECT @@port")
    [[ $port == "$MARIADB_REPLICATE_PORT" ]] ||
        die "MariaDB replicate instance listens on port $port, but OPENRS_MARIADB_REPLICATE_PORT is $MARIADB_REPLICATE_PORT" \
            "stop it (mariadb-admin -uroot -S $REPLICATE_SOCKET shutdown) and re-run this script"
}

rep_ensure_users() {
    local host exists
    for host in localhost 127.0.0.1; do
        exists=$(rep_query "SELECT COUNT(*) FROM mysql.user WHERE User = '$APP_USER' AND Host = '$host'")
        if [[ $exists == 0 ]]; then
            rep_query "CREATE USER '$APP_USER'@'$host' IDENTIFIED BY '$APP_PASSWORD'" >/dev/null
            rep_query "GRANT ALL PRIVILEGES ON *.* TO '$APP_USER'@'$host'" >/dev/null
            log mariadb-replicate "created user '$APP_USER'@'$host' with ALL PRIVILEGES ON *.*"
        else
            log mariadb-replicate "user '$APP_USER'@'$host' already exists"
        fi
    done
    wait_until rep_accepts_tcp ||
        die "MariaDB replicate instance: $APP_USER cannot log in on 127.0.0.1:$MARIADB_REPLICATE_PORT" "$(rep_log_tail)"
    log mariadb-replicate "verified: $APP_USER logs in on 127.0.0.1:$MARIADB_REPLICATE_PORT"
}

setup_mariadb_replicate() {
    rep_ensure_datadir
    rep_ensure_running
    rep_ensure_users
}

# ---------------------------------------------------------------------------

main() {
    check_environment
    ensure_packages
    setup_postgresql
    setup_mariadb
    setup_mariadb_replicate
    log setup "PostgreSQL (127.0.0.1:$PG_PORT), MariaDB (127.0.0.1:$MARIADB_PORT) and its replicate instance (127.0.0.1:$MARIADB_REPLICATE_PORT) are ready for OpenRS"
}

main "$@"
