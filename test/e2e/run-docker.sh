#!/usr/bin/env bash
# npm run e2e:docker — the same run as npm run e2e:compose, with Docker's compose where a Docker
# engine runs (docker compose up --wait honours the healthcheck itself): the demo (inspect, fastest
# load, partial latest import) under the image's mysqlsh, then the rows checked. MYSQL_IMAGE picks
# the image (default mysql:8.4), MYSQL_HOST_PORT the published port (default 3306).
set -euo pipefail
cd "$(dirname "$0")/../.."
docker compose version >/dev/null 2>&1 || { echo "docker compose does not run here: npm run e2e:compose runs the same through podman, npm run demo the same steps with the shared MySQL Shell and MySQL." >&2; exit 2; }
trap 'docker compose down -v' EXIT
docker compose up -d --wait mysql
docker compose run --rm -T demo
bash test/e2e/check-rows.sh docker compose
