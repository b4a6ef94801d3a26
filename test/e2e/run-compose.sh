#!/usr/bin/env bash
# npm run e2e:compose — docker-compose.yml run for real through podman-compose: `up --wait` of the
# mysql service, the `demo` service (fastest load of sample-dumps/shop, then a partial `latest`
# import, with mysqlsh's report), the row counts checked in the container's server, `down -v`.
# Exits 0 only when the rows are there. The image is MYSQL_IMAGE, or else the local stand-in for
# mysql:8.4 (test/e2e/image/build.sh; no registry serves images here). Needs root: podman here
# runs root containers (scripts/setup-podman.sh installs podman and podman-compose when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" -eq 0 ] || { echo "e2e:compose: run as root (podman here runs root containers; debootstrap needs root): sudo -E npm run e2e:compose" >&2; exit 2; }
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/test/e2e/podman/containers.conf}
start=$SECONDS
compose_bin=$(sh scripts/setup-podman.sh)
if [ -z "${MYSQL_IMAGE:-}" ]; then MYSQL_IMAGE=$(test/e2e/image/build.sh); fi
export MYSQL_IMAGE
# A free loopback port for the published 3306 (a developer's own server may hold 3306).
MYSQL_HOST_PORT=${MYSQL_HOST_PORT:-$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')}
export MYSQL_HOST_PORT
# A project of its own: `down -v` removes this run's containers, network and volumes only.
project=mysqlsh-restore-e2e
compose=("$compose_bin" -p "$project" -f docker-compose.yml)
echo "e2e:compose: image $MYSQL_IMAGE, published on 127.0.0.1:$MYSQL_HOST_PORT (set-up and image: $((SECONDS - start)) s)"
# podman 4.3 (Debian 12) runs healthchecks from systemd timers, and says so on each start and
# removal where there is no systemd: those lines go; the healthcheck is run below instead.
quiet() { "$@" 2> >(grep --line-buffered -v 'unable to get systemd connection' >&2); }
quiet "${compose[@]}" down -v >/dev/null 2>&1 || true   # what an interrupted run left
trap 'quiet "${compose[@]}" down -v >/dev/null 2>&1 || true' EXIT

up=$SECONDS
quiet "${compose[@]}" up -d --wait mysql
# podman 4.3 has no `podman wait --condition=healthy`, so podman-compose skips --wait and
# depends_on's service_healthy (it says so above), and no systemd timer runs the healthcheck
# here: the compose file's own healthcheck is run until it passes, as up --wait would wait for it.
cid=$(podman ps -q --filter "label=io.podman.compose.project=$project" --filter label=com.docker.compose.service=mysql)
[ -n "$cid" ] || { echo "e2e:compose: the mysql service is not running" >&2; "${compose[@]}" logs mysql >&2 || true; exit 1; }
until [ "$(podman inspect "$cid" --format '{{.State.Health.Status}}')" = healthy ]; do
  if [ $((SECONDS - up)) -gt 300 ] || [ "$(podman inspect "$cid" --format '{{.State.Running}}')" != true ]; then
    echo "e2e:compose: mysql did not become healthy:" >&2; "${compose[@]}" logs mysql >&2 || true; exit 1
  fi
  podman healthcheck run "$cid" >/dev/null 2>&1 || sleep 1
done
echo "e2e:compose: mysql healthy after $((SECONDS - up)) s"

demo=$SECONDS
"${compose[@]}" run --rm -T demo
echo "e2e:compose: demo done in $((SECONDS - demo)) s"

bash test/e2e/check-rows.sh "${compose[@]}"
# The published port is the developer's way in: the server's greeting arrives on it.
python3 - "$MYSQL_HOST_PORT" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
hello = s.recv(256)
print("e2e:compose: 127.0.0.1:%s answers: MySQL %s" % (sys.argv[1], hello[5:hello.index(b"\0", 5)].decode()))
EOF
# down also stops the services never started (demo, bench) and says "no container" for each: its
# output is shown only when it fails.
out=$("${compose[@]}" down -v 2>&1) || { echo "$out" >&2; echo "e2e:compose: down -v failed" >&2; exit 1; }
trap - EXIT
left=$(podman ps -aq --filter "label=io.podman.compose.project=$project"; podman volume ls -q --filter "label=io.podman.compose.project=$project")
[ -z "$left" ] || { echo "e2e:compose: down -v left containers or volumes: $left" >&2; exit 1; }
echo "e2e:compose: passed in $((SECONDS - start)) s (down -v left nothing)"
