#!/bin/sh
# Set-up for `npm run e2e:compose` (docker-compose.yml run for real through podman), installing only
# what is missing: podman with runc, netavark, aardvark-dns and iptables (the compose network, its
# names and published port), debootstrap and zstd (the stand-in mysql image,
# test/e2e/image/build.sh), python3-venv; then podman-compose 1.6.0 from PyPI in
# ~/.cache/mysqlsh-restore-e2e/podman-compose (Debian's 1.0.3 has no `up --wait`). Not part of
# `npm test`. Needs root (sudo when not root). Prints the podman-compose path.
set -eu
cd "$(dirname "$0")/.."
CONTAINERS_CONF=${CONTAINERS_CONF:-$(pwd)/test/e2e/podman/containers.conf}
export CONTAINERS_CONF
need=""
command -v podman >/dev/null 2>&1 || need="$need podman"
command -v runc >/dev/null 2>&1 || need="$need runc"
[ -x /usr/lib/podman/netavark ] || need="$need netavark"
[ -x /usr/lib/podman/aardvark-dns ] || need="$need aardvark-dns"
command -v iptables >/dev/null 2>&1 || need="$need iptables"   # netavark's port forwarding
command -v debootstrap >/dev/null 2>&1 || need="$need debootstrap"
command -v zstd >/dev/null 2>&1 || need="$need zstd"
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
  echo "setup-podman.sh: run as root (podman here runs root containers; debootstrap needs root)." >&2; exit 1
fi
if [ -n "$need" ]; then
  echo "Installing:$need" >&2
  $sudo apt-get update -qq
  # With podman's recommended packages, as tried here (fuse-overlayfs, slirp4netns, uidmap, …).
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >&2
fi
venv=${XDG_CACHE_HOME:-$HOME/.cache}/mysqlsh-restore-e2e/podman-compose
version=1.6.0
if [ "$("$venv/bin/podman-compose" version --short 2>/dev/null || true)" != "$version" ]; then
  echo "Installing podman-compose $version into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "podman-compose==$version" >&2
fi
# The settings this machine needs (runc, cgroupfs, explicit ulimits): a container must run.
$sudo env CONTAINERS_CONF="$CONTAINERS_CONF" podman info --format '{{.Host.OCIRuntime.Name}} {{.Host.CgroupManager}}' >/dev/null \
  || { echo "setup-podman.sh: podman does not work with $CONTAINERS_CONF (podman info failed)." >&2; exit 1; }
echo "$venv/bin/podman-compose"
