#!/usr/bin/env bash
# Builds the local image that stands in for mysql:8.4 and prints its name (for MYSQL_IMAGE):
# a Debian bookworm root file system made with debootstrap, plus the shared MySQL server bundle
# (../shared/mysql/mysql-*.tar.zst, or MYSQL_BUNDLE) and MySQL Shell bundle (../shared/mysqlsh/,
# newest or MYSQLSH_BUNDLE). The image is tagged with a hash of its inputs: when neither this
# folder nor the bundles changed, nothing is built. Needs root, podman, debootstrap and zstd
# (scripts/setup-podman.sh installs them) and CONTAINERS_CONF set as run-compose.sh sets it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
shared=$(cd "${RESTORE_SHARED_DIR:-$root/../shared}" 2>/dev/null && pwd) \
  || { echo "build.sh: no shared folder (../shared or RESTORE_SHARED_DIR) with the MySQL bundles" >&2; exit 2; }
mysql_bundle=${MYSQL_BUNDLE:-$(ls "$shared"/mysql/mysql-*.tar.zst 2>/dev/null | sort -V | tail -n 1)}
shell_bundle=${MYSQLSH_BUNDLE:-$(ls "$shared"/mysqlsh/mysqlsh-*.tar.zst 2>/dev/null | sort -V | tail -n 1)}
[ -f "$mysql_bundle" ] || { echo "build.sh: no MySQL server bundle in $shared/mysql" >&2; exit 2; }
[ -f "$shell_bundle" ] || { echo "build.sh: no MySQL Shell bundle in $shared/mysqlsh" >&2; exit 2; }

repo=localhost/mysqlsh-restore-mysql
# The bundles by name and size (hashing 100 MB of zstd each run would cost seconds).
key=$( { cat "$here"/Containerfile "$here"/docker-entrypoint.sh "$here"/my.cnf "$here"/build.sh
         stat -c '%n %s' "$mysql_bundle" "$shell_bundle" | sed 's|.*/||'; } | sha256sum | cut -c1-16)
image="$repo:$key"
if podman image exists "$image"; then echo "$image"; exit 0; fi

cache=${XDG_CACHE_HOME:-$HOME/.cache}/mysqlsh-restore-e2e
mkdir -p "$cache"
# The root file system changes only with this recipe (bump v1 when the steps below change); made
# once (about a minute) and kept as a tar.
suite=bookworm packages=ca-certificates,gzip,xz-utils,zstd
rootfs="$cache/rootfs-$suite-$(echo "$suite $packages v1" | sha256sum | cut -c1-8).tar"
if [ ! -f "$rootfs" ]; then
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
  dir=$(mktemp -d "$cache/rootfs.XXXXXX")
  echo "build.sh: debootstrap $suite into $dir (log: $dir.log)" >&2
  debootstrap --variant=minbase --include="$packages" "$suite" "$dir" ${mirror:-http://deb.debian.org/debian} >"$dir.log" 2>&1 \
    || { echo "build.sh: debootstrap failed, see $dir.log" >&2; exit 3; }
  # The official image's user (uid 999) and folders; the programs on PATH point into the bundles.
  chroot "$dir" groupadd --system --gid 999 mysql
  chroot "$dir" useradd --system --uid 999 --gid 999 --home-dir /var/lib/mysql --no-create-home mysql
  mkdir -p "$dir"/var/lib/mysql "$dir"/var/lib/mysql-files "$dir"/var/run/mysqld "$dir"/etc/mysql/conf.d "$dir"/docker-entrypoint-initdb.d
  chown 999:999 "$dir"/var/lib/mysql "$dir"/var/lib/mysql-files "$dir"/var/run/mysqld
  for p in mysqld mysql mysqladmin mysqldump mysqlbinlog my_print_defaults; do ln -s /opt/mysql/bin/$p "$dir/usr/local/bin/$p"; done
  ln -s /opt/mysqlsh/mysqlsh "$dir/usr/local/bin/mysqlsh"
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  tar --numeric-owner -C "$dir" -cf "$rootfs.tmp" . && mv "$rootfs.tmp" "$rootfs"
  rm -rf "$dir" "$dir.log"
fi

ctx=$(mktemp -d "$cache/context.XXXXXX")
trap 'rm -rf "$ctx"' EXIT
ln "$rootfs" "$ctx/rootfs.tar" 2>/dev/null || cp "$rootfs" "$ctx/rootfs.tar"
cp "$here"/Containerfile "$here"/my.cnf "$here"/docker-entrypoint.sh "$ctx/"
chmod 755 "$ctx/docker-entrypoint.sh"
for b in mysql:"$mysql_bundle" mysqlsh:"$shell_bundle"; do
  mkdir "$ctx/${b%%:*}.tmp"; tar -I zstd -xf "${b#*:}" -C "$ctx/${b%%:*}.tmp"
  mv "$ctx/${b%%:*}.tmp"/* "$ctx/${b%%:*}"; rmdir "$ctx/${b%%:*}.tmp"
done
echo "build.sh: building $image from $(basename "$mysql_bundle") and $(basename "$shell_bundle")" >&2
podman build --quiet --layers=false -t "$image" -f "$ctx/Containerfile" "$ctx" >&2
# Older builds of the stand-in go (their layers are some 700 MB each); one in use stays.
for old in $(podman images --format '{{.Repository}}:{{.Tag}}' "$repo" | grep -vx "$image"); do
  podman rmi "$old" >/dev/null 2>&1 || true
done
echo "$image"
