#!/usr/bin/env bash
# npm run e2e:docker — the e2e scenarios under REAL mysqlsh against MySQL 8.4 (needs docker).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v docker >/dev/null || { echo "docker is not installed: the e2e scenarios run through the stand-in in npm test instead." >&2; exit 2; }
docker compose up -d --wait mysql
trap 'docker compose down -v' EXIT
docker compose run --rm e2e
docker compose run --rm demo
