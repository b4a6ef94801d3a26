#!/bin/sh
# The GraalJS test host, called like mysqlsh: run.sh [URI] [--js] (-e CODE | -f FILE)
# MYSQLSH_USER_CONFIG_HOME picks the config home (plugins under $MYSQLSH_USER_CONFIG_HOME/plugins).
# RESTORE_MYSQLSH: the real mysqlsh that util.loadDump / util.dump* are delegated to.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# The real Shell beside the checkout, as every other test finds it (../shared, or RESTORE_SHARED_DIR).
shared=${RESTORE_SHARED_DIR:-$(cd "$here/../../.." && pwd)/shared}
export RESTORE_MYSQLSH="${RESTORE_MYSQLSH:-$shared/bin/mysqlsh}"
"$here/build.sh"
# Interpreter-only GraalJS (a stock JDK has no Graal compiler): small heap, few threads.
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss8m -Xmx1g \
  -Dgraalhost.home="$here" -Dpolyglot.engine.WarnInterpreterOnly=false \
  -cp "$here/target/graal-host-0.1.0.jar:$(cat "$here/target/classpath.txt")" restore.graalhost.Main "$@"
