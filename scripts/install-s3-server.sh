#!/usr/bin/env bash
# The S3-compatible server the bucket tests start on loopback: SeaweedFS's `weed`, built from the
# Go module proxy at a fixed version into $(go env GOPATH)/bin (test/support/s3-server.js looks
# there, on PATH, and at $RESTORE_TEST_WEED). `go install mod@version` refuses SeaweedFS (its go.mod
# has replace directives), so the module is downloaded and built in a scratch copy. Skipped when
# weed is already there.
set -euo pipefail
VERSION=v0.0.0-20261109003541-7506e5f91cd6
MODULE=github.com/seaweedfs/seaweedfs
command -v go >/dev/null 2>&1 || { echo "install-s3-server: no go toolchain: the bucket tests will be skipped" >&2; exit 0; }
BIN="$(go env GOPATH)/bin"
if command -v weed >/dev/null 2>&1 || [ -x "$BIN/weed" ]; then exit 0; fi
started=$(date +%s)
dir=$(go mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
mkdir -p "$BIN"
(cd "$work" && go build -trimpath -ldflags='-s -w' -o "$BIN/weed" ./weed)
echo "install-s3-server: built $BIN/weed ($MODULE $VERSION) in $(( $(date +%s) - started )) s"
