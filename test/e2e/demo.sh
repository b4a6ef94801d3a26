#!/usr/bin/env bash
# The docker `demo` service: real mysqlsh in the mysql:8.4 image loads the sample dump with the
# fastest preset, then does a partial `latest` import. The dump is copied first: /sample-dumps is
# mounted read-only, and loads write a progress file (and stubs) into the dump directory.
set -euo pipefail
uri=${MYSQL_URI:-root:restore@mysql:3306}
work=$(mktemp -d)
cp -r /sample-dumps/shop "$work/full"
cp -r /sample-dumps/shop "$work/partial"
mysqlsh "$uri" -- restore version
mysqlsh "$uri" -- restore inspect "$work/full"
mysqlsh "$uri" -- restore load "$work/full" --preset=fastest --force=true
# Keep only the newest two chunks of orders, as a developer who fetched just those would.
ls "$work/partial" | grep -E '^shop@orders@[0-9]+\.tsv\.zst$' | sort -t@ -k3 -n | head -n -1 | while read -r f; do rm "$work/partial/$f"; done
mysqlsh "$uri" -- restore plan "$work/partial" --latest=shop.orders:2 --exclude-tables=shop.audit_log
mysqlsh "$uri" -- restore load "$work/partial" --latest=shop.orders:2 --exclude-tables=shop.audit_log --preset=dev --force=true
mysqlsh "$uri" -- restore status
