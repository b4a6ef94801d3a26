#!/bin/sh
# Builds the GraalJS test host (quietly; a no-op when the jar and classpath are newer than the sources).
# Output: target/graal-host-0.1.0.jar and target/classpath.txt (dependency jars from ~/.m2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
jar=target/graal-host-0.1.0.jar
cp=target/classpath.txt
if [ -f "$jar" ] && [ -f "$cp" ] && [ -z "$(find pom.xml src -newer "$jar" 2>/dev/null | head -n 1)" ]; then
  # every dependency jar still present?
  missing=$(tr ':' '\n' < "$cp" | while read -r f; do [ -f "$f" ] || echo "$f"; done | head -n 1)
  [ -z "$missing" ] && exit 0
fi
command -v mvn >/dev/null 2>&1 || { echo "graal-host: mvn (Maven) is not installed" >&2; exit 2; }
command -v java >/dev/null 2>&1 || { echo "graal-host: java (17+) is not installed" >&2; exit 2; }
log=$(mktemp)
if ! mvn -q -B -ntp package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >"$log" 2>&1; then
  cat "$log" >&2; rm -f "$log"; echo "graal-host: build failed" >&2; exit 1
fi
rm -f "$log"
touch "$jar"
