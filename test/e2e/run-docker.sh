#!/usr/bin/env bash
# npm run e2e:docker — the demo (inspect, fastest load, partial latest import) under the real mysqlsh of
# the mysql:8.4 image against MySQL 8.4 (needs docker).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v docker >/dev/null || { echo "docker is not installed: npm run demo runs the same steps with the shared MySQL Shell and MySQL." >&2; exit 2; }
docker compose up -d --wait mysql
trap 'docker compose down -v' EXIT
docker compose run --rm demo
