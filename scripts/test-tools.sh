# Sourced by ./test: installs the tools some tests drive (tmux, for the shell's terminal test) when
# they are missing and this machine can install Debian packages as root. Best effort: without
# them, those tests are skipped with a message saying so, and everything else still runs.
install_test_tools() {
  command -v tmux >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test tools: installing tmux (for the interactive shell test)..." >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; } >/dev/null 2>&1 \
      || echo "test tools: could not install tmux; the interactive shell test will be skipped" >&2
  else
    echo "test tools: tmux is missing; the interactive shell test will be skipped" >&2
  fi
}
install_test_tools
