#!/bin/sh
# Installs what developing this project needs on Debian/Ubuntu, and only what is missing:
# zstd, python3, rsync, ssh and sshd (a loopback backup host in the tests and the demo), and
# Node.js with npm only when there is no `node` yet (a Node.js from
# NodeSource, nvm or elsewhere is kept: apt's npm conflicts with NodeSource's nodejs).
# Uses sudo only when not root. Then installs the project's own dependencies (npm ci).
set -eu
cd "$(dirname "$0")/.."
need=""
command -v zstd >/dev/null 2>&1 || need="$need zstd"
command -v python3 >/dev/null 2>&1 || need="$need python3"
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
command -v rsync >/dev/null 2>&1 || need="$need rsync"
command -v ssh >/dev/null 2>&1 || need="$need openssh-client"
[ -x /usr/sbin/sshd ] || need="$need openssh-server"
if ! command -v node >/dev/null 2>&1; then
  need="$need nodejs npm"
elif ! command -v npm >/dev/null 2>&1; then
  echo "node is installed but npm is not: install npm with the same tool that installed node ($(command -v node))." >&2
  exit 1
fi
if [ -n "$need" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    sudo=""
  elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "Missing:$need. Install them as root (apt-get install$need), or install sudo, and run this again." >&2
    exit 1
  fi
  echo "Installing:$need"
  $sudo apt-get update
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
  echo "Node.js $(node --version) is too old: the tests need 18 or later (see https://nodejs.org)." >&2
  exit 1
fi
echo "zstd, python3, rsync, ssh, node $(node --version), npm $(npm --version): installing the project's dependencies (npm ci)"
npm ci
# The bucket tests' S3-compatible server (moto from PyPI, in ~/.cache/restore-test/moto).
"$(dirname "$0")/install-s3-server.sh" || echo "Could not install moto: the bucket tests will be skipped." >&2
echo "Ready: npm run demo (the main job on sample-dumps/shop), npm test (the tests)."
