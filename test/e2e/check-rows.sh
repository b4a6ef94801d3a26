#!/usr/bin/env bash
# After the demo service: the rows, counted by the container's own server, through the compose tool
# given as arguments (`podman-compose -p P`, `docker compose`). The partial import's newest orders
# (2 chunks of 12: 2000 rows), the full load's audit_log (left out of the partial import: 2000) and
# no empty table among the others. Exits 1 otherwise.
set -euo pipefail
counts=$("$@" exec -T -e MYSQL_PWD=restore mysql mysql -uroot -N -B -e "
  SELECT 'orders', COUNT(*) FROM shop.orders UNION ALL SELECT 'audit_log', COUNT(*) FROM shop.audit_log
  UNION ALL SELECT 'customers', COUNT(*) FROM shop.customers UNION ALL SELECT 'products', COUNT(*) FROM shop.products
  UNION ALL SELECT 'events', COUNT(*) FROM shop.events
  UNION ALL SELECT '\`order items\`', COUNT(*) FROM shop.\`order items\`" | tr '\t' ' ')
echo "$counts" | sed 's/^/rows in shop./'
got=$(echo "$counts" | grep -E '^(orders|audit_log) ' || true)
if [ "$got" != $'orders 2000\naudit_log 2000' ] || [ "$(echo "$counts" | wc -l)" -ne 6 ] || echo "$counts" | grep -qE ' 0$'; then
  echo "FAILED: expected shop.orders 2000 and shop.audit_log 2000 rows, and rows in the other four tables" >&2
  exit 1
fi
