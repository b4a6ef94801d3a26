#!/bin/bash
# Entrypoint of the stand-in for the official mysql image (written from that image's documented
# behaviour, not copied): on the first start of an empty /var/lib/mysql it initializes the data
# directory, sets root's password from MYSQL_ROOT_PASSWORD (or an empty one with
# MYSQL_ALLOW_EMPTY_PASSWORD; MYSQL_RANDOM_ROOT_PASSWORD, which prints one, is not here), adds
# root@MYSQL_ROOT_HOST (default %), MYSQL_DATABASE and MYSQL_USER/MYSQL_PASSWORD (each also as
# VAR_FILE), runs /docker-entrypoint-initdb.d/*.sh, *.sql, *.sql.gz|xz|zst on a server that listens on no port, then
# execs mysqld with the command's arguments. Any other command runs as given (`mysqlsh …`, `bash`).
set -eo pipefail

log() { echo "$(date -u +%FT%TZ) [Entrypoint]: $*"; }
die() { log "ERROR: $*" >&2; exit 1; }

if [ "${1:0:1}" = '-' ]; then set -- mysqld "$@"; fi
if [ "$1" != mysqld ]; then exec "$@"; fi
for a in "$@"; do case "$a" in -'?'|--help|--print-defaults|-V|--version) exec "$@" ;; esac; done

# VAR_FILE names a file holding VAR's value (for secrets), as in the official image.
for v in MYSQL_ROOT_PASSWORD MYSQL_ROOT_HOST MYSQL_DATABASE MYSQL_USER MYSQL_PASSWORD; do
  f="${v}_FILE"
  if [ -n "${!f:-}" ]; then
    [ -z "${!v:-}" ] || die "both $v and $f are set: give one."
    export "$v=$(<"${!f}")"
  fi
done
export MYSQL_ROOT_HOST=${MYSQL_ROOT_HOST:-%}   # the official default: root may connect from anywhere

datadir=/var/lib/mysql
sock=/var/run/mysqld/mysqld.sock
mkdir -p "$datadir" /var/run/mysqld /var/lib/mysql-files
chown mysql:mysql "$datadir" /var/run/mysqld /var/lib/mysql-files

if [ ! -d "$datadir/mysql" ]; then
  if [ -z "${MYSQL_ROOT_PASSWORD:-}" ] && [ -z "${MYSQL_ALLOW_EMPTY_PASSWORD:-}" ]; then
    die 'the database is uninitialized and no password option is given: set MYSQL_ROOT_PASSWORD (or MYSQL_ALLOW_EMPTY_PASSWORD=yes).'
  fi
  log 'Initializing the database'
  "$@" --initialize-insecure --default-time-zone=SYSTEM
  log 'Starting a temporary server (no network) for the first-start set-up'
  "$@" --skip-networking --default-time-zone=SYSTEM --socket="$sock" &
  pid=$!
  client=(mysql --protocol=socket --socket="$sock" -uroot)
  for _ in $(seq 1 120); do "${client[@]}" -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.5; done
  "${client[@]}" -e 'SELECT 1' >/dev/null || die 'the temporary server did not start'

  # SQL string literals and identifiers, quoted as the server reads them.
  lit() { local s=${1//\\/\\\\}; printf "'%s'" "${s//\'/\'\'}"; }
  ident() { printf '`%s`' "${1//\`/\`\`}"; }
  pw=$(lit "${MYSQL_ROOT_PASSWORD:-}")
  sql="SET @@SESSION.SQL_LOG_BIN=0; ALTER USER 'root'@'localhost' IDENTIFIED BY $pw; DROP DATABASE IF EXISTS test;"
  if [ "$MYSQL_ROOT_HOST" != localhost ]; then
    h=$(lit "$MYSQL_ROOT_HOST")
    sql+=" CREATE USER 'root'@$h IDENTIFIED BY $pw; GRANT ALL ON *.* TO 'root'@$h WITH GRANT OPTION;"
    sql+=" GRANT PROXY ON ''@'' TO 'root'@$h WITH GRANT OPTION;"
  fi
  if [ -n "${MYSQL_DATABASE:-}" ]; then sql+=" CREATE DATABASE IF NOT EXISTS $(ident "$MYSQL_DATABASE");"; fi
  if [ -n "${MYSQL_USER:-}" ]; then
    [ "$MYSQL_USER" != root ] || die 'MYSQL_USER=root: root is set up by MYSQL_ROOT_PASSWORD; use another name.'
    sql+=" CREATE USER $(lit "$MYSQL_USER")@'%' IDENTIFIED BY $(lit "${MYSQL_PASSWORD:-}");"
    [ -z "${MYSQL_DATABASE:-}" ] || sql+=" GRANT ALL ON $(ident "$MYSQL_DATABASE").* TO $(lit "$MYSQL_USER")@'%';"
  fi
  "${client[@]}" -e "$sql"
  # From here on root has its password; the option file keeps it out of the process list.
  cnf=$(mktemp); chmod 600 "$cnf"
  printf '[client]\npassword=%s\n' "${MYSQL_ROOT_PASSWORD:-}" >"$cnf"
  client=(mysql --defaults-extra-file="$cnf" --protocol=socket --socket="$sock" -uroot)
  [ -z "${MYSQL_DATABASE:-}" ] || client+=("$MYSQL_DATABASE")

  for f in /docker-entrypoint-initdb.d/*; do
    [ -e "$f" ] || continue
    case "$f" in
      *.sh) if [ -x "$f" ]; then log "running $f"; "$f"; else log "sourcing $f"; . "$f"; fi ;;
      *.sql) log "running $f"; "${client[@]}" <"$f" ;;
      *.sql.gz) log "running $f"; gunzip -c "$f" | "${client[@]}" ;;
      *.sql.xz) log "running $f"; xzcat "$f" | "${client[@]}" ;;
      *.sql.zst) log "running $f"; zstd -dc "$f" | "${client[@]}" ;;
      *) log "ignoring $f" ;;
    esac
  done

  mysqladmin --defaults-extra-file="$cnf" --protocol=socket --socket="$sock" -uroot shutdown
  wait "$pid"
  rm -f "$cnf"
  log 'First-start set-up done; starting the server'
fi

exec "$@"
