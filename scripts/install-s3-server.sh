#!/usr/bin/env bash
# The S3-compatible server the bucket tests start on loopback (test/support/s3-server.js):
#   default        moto's standalone server from PyPI (pinned), in a virtual environment at
#                  ~/.cache/restore-test/moto: about a minute to install;
#   --seaweedfs    SeaweedFS's `weed`, built from the Go module proxy at a fixed version into
#                  $(go env GOPATH)/bin: 9 CPU-minutes of compiling (a 230 MB program), too long for
#                  CI's 20 minutes on 2 cores, so CI takes moto. The tests use weed when it is there.
# Both check request signatures. Skipped when the chosen server is already installed.
set -euo pipefail
if [ "${1:-}" = "--seaweedfs" ]; then
  VERSION=v0.0.0-20261109003541-7506e5f91cd6
  MODULE=github.com/seaweedfs/seaweedfs
  command -v go >/dev/null 2>&1 || { echo "install-s3-server: no go toolchain" >&2; exit 1; }
  BIN="$(go env GOPATH)/bin"
  if command -v weed >/dev/null 2>&1 || [ -x "$BIN/weed" ]; then exit 0; fi
  started=$(date +%s)
  # `go install mod@version` refuses SeaweedFS (its go.mod has replace directives): the module is
  # downloaded and built in a scratch copy.
  dir=$(go mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  work=$(mktemp -d)
  trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
  cp -r "$dir/." "$work/"
  chmod -R u+w "$work"
  mkdir -p "$BIN"
  (cd "$work" && go build -trimpath -ldflags='-s -w' -o "$BIN/weed" ./weed)
  echo "install-s3-server: built $BIN/weed ($MODULE $VERSION) in $(( $(date +%s) - started )) s"
  exit 0
fi
VENV="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/restore-test/moto"
if [ -x "$VENV/bin/moto_server" ]; then exit 0; fi
started=$(date +%s)
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check 'moto[server]==5.2.5'
echo "install-s3-server: moto 5.2.5 in $VENV ($(( $(date +%s) - started )) s)"
