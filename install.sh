#!/bin/sh
# Installs the restore plugin for MySQL Shell: copies plugins/restore (with lib/) into
# $MYSQLSH_USER_CONFIG_HOME/plugins/restore, or ~/.mysqlsh/plugins/restore.
#   ./install.sh          copy (what a user wants)
#   ./install.sh --link   symlink the working tree (for development)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# Where the Shell looks (its get_user_config_path()): MYSQLSH_USER_CONFIG_HOME when set, else
# $HOME/.mysqlsh, else the current directory.
if [ "${MYSQLSH_USER_CONFIG_HOME+set}" = set ]; then config_home=${MYSQLSH_USER_CONFIG_HOME:-.}
elif [ -n "${HOME:-}" ]; then config_home="$HOME/.mysqlsh"
else config_home=.
fi
target="$config_home/plugins/restore"
# A config home made here is private, as the Shell makes it (0700): mysqlsh.log and the plugin's state live there.
if [ ! -d "$config_home" ]; then mkdir -p "$(dirname "$config_home")" && (umask 077 && mkdir "$config_home"); fi
mkdir -p "$config_home/plugins"
if [ -e "$target" ] || [ -L "$target" ]; then
  rm -rf "$target"
fi
if [ "${1:-}" = "--link" ]; then
  ln -s "$here/plugins/restore" "$target"
  echo "Linked $target -> $here/plugins/restore"
else
  mkdir -p "$target"
  cp -R "$here/plugins/restore/restore_js" "$here/plugins/restore/restore_py" "$target/"
  cp -R "$here/lib" "$target/lib"
  find "$target" -name '__pycache__' -prune -exec rm -rf {} +
  echo "Installed the restore plugin into $target"
fi
echo "Start mysqlsh and type: \\? restore"
