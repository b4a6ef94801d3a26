#!/usr/bin/env bash
# The docker `demo` service: real mysqlsh in the mysql:8.4 image loads the sample dump with the
# fastest preset, then does a partial `latest` import, both straight from /sample-dumps, which is
# mounted read-only: the plugin writes nothing into a dump (util.loadDump's progress file goes to
# the plugin's state directory, the stubs of a partial import into a load view of its own).
# test/shell/e2e-scenarios.test.js runs this file under the real Shell here (SAMPLE_DUMPS, MYSQL_URI).
set -euo pipefail
uri=${MYSQL_URI:-root:restore@mysql:3306}
dump=${SAMPLE_DUMPS:-/sample-dumps}/shop
mysqlsh "$uri" -- restore version
mysqlsh "$uri" -- restore inspect "$dump"
mysqlsh "$uri" -- restore load "$dump" --preset=fastest --force=true
mysqlsh "$uri" -- restore plan "$dump" --latest=shop.orders:2 --exclude-tables=shop.audit_log
mysqlsh "$uri" -- restore load "$dump" --latest=shop.orders:2 --exclude-tables=shop.audit_log --preset=dev --drop-existing=true --force=true
mysqlsh "$uri" -- restore status
