# Sourced by ./test: installs the tools some tests drive when they are missing and this machine can
# install Debian packages as root: tmux (the shell's terminal test), psql and pgbench (the wire
# server's client tests; pgbench ships in Debian's postgresql server package). Best effort: without
# them, those tests are skipped with a message saying so, and everything else still runs.
install_test_tools() {
  local packages=()
  command -v tmux >/dev/null 2>&1 || packages+=(tmux)
  command -v psql >/dev/null 2>&1 || packages+=(postgresql-client)
  command -v pgbench >/dev/null 2>&1 || packages+=(postgresql)
  [ ${#packages[@]} -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test tools: installing ${packages[*]} (for the terminal and wire-protocol client tests)..." >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"; } >/dev/null 2>&1 \
      || echo "test tools: could not install ${packages[*]}; the tests that need them will be skipped" >&2
  else
    echo "test tools: ${packages[*]} missing; the tests that need them will be skipped" >&2
  fi
}
install_test_tools
