# Sourced by ./run and ./test: exports JAVA_HOME pointing at a JDK 25+, found without user edits.
# Order: $JAVA_HOME, java on PATH, then the usual install places.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1; }
pick_jdk() {
  local candidate
  for candidate in "${JAVA_HOME:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")" \
                   /usr/lib/jvm/* /opt/java/* /opt/jdk* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    local major; major=$(java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null; then echo "$candidate"; return 0; fi
  done
  return 1
}
if ! JAVA_HOME=$(pick_jdk); then
  echo "Parallax needs a JDK 25 or newer and none was found (looked at JAVA_HOME, java on PATH, /usr/lib/jvm, /opt)." >&2
  echo "Install one (e.g. Temurin 25) or point JAVA_HOME at it." >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
