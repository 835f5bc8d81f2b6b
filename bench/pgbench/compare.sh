#!/usr/bin/env bash
# The seed's pgbench experiment (issue 4, docs/BENCHMARKS.md) against Parallax and PostgreSQL 15 in
# one run, printed as one table: starts `parallax serve` from cli/target/parallax.jar, takes the
# PostgreSQL server at PG_HOST:PG_PORT, has run.sh load ROWS rows into the single table `test` and
# the 1024-partition table `p` on each and run the point-select and upsert scripts
# (pgbench -M prepared -n -c 4 -j 2 -T 20 unless PGBENCH_MODE/PGBENCH_DURATION/PGBENCH_CLIENTS say
# otherwise, after an unrecorded PGBENCH_WARMUP-second run of each, 5 by default), then prints tps side
# by side with the ratios the issue targets, and each server's CPU time per transaction (robust to
# a loaded machine, where tps is not).
#
#   bench/pgbench/compare.sh [ROWS]            ROWS defaults to 10,000,000 as in the issue
#
# Environment: PG_HOST (/tmp/pgref), PG_PORT (54329), PG_USER (postgres), PG_DATABASE
# (pgbench_compare, created if missing), PARALLAX_PORT (5499), PARALLAX_JAVA_OPTIONS (-Xmx12g).
# Build the jar first (./test, or mvn -o -q -pl cli -am package -DskipTests). Needs psql and pgbench.
set -euo pipefail
rows=${1:-10000000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
pg_host=${PG_HOST:-/tmp/pgref}
pg_port=${PG_PORT:-54329}
pg_user=${PG_USER:-postgres}
pg_database=${PG_DATABASE:-pgbench_compare}
parallax_port=${PARALLAX_PORT:-5499}
jar="$root/cli/target/parallax.jar"
[[ -f "$jar" ]] || { echo "no $jar: build it first (mvn -o -q -pl cli -am package -DskipTests)" >&2; exit 2; }
# shellcheck source=/dev/null
source "$root/scripts/jdk.sh"

if ! psql -X -q -h "$pg_host" -p "$pg_port" -U "$pg_user" -d "$pg_database" -c 'select 1' >/dev/null 2>&1; then
  createdb -h "$pg_host" -p "$pg_port" -U "$pg_user" "$pg_database"
fi

log="$here/parallax-server-$parallax_port.log"
# shellcheck disable=SC2086
java ${PARALLAX_JAVA_OPTIONS:--Xmx12g} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
  -jar "$jar" serve --host 127.0.0.1 --port "$parallax_port" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  if psql -X -q -h 127.0.0.1 -p "$parallax_port" -U postgres -d postgres -c 'select 1' >/dev/null 2>&1; then
    break
  fi
  kill -0 "$server" 2>/dev/null || { echo "parallax serve exited; see $log" >&2; exit 1; }
  sleep 0.5
done

echo "== Parallax (127.0.0.1:$parallax_port), $rows rows"
SERVER_PID=$server "$here/run.sh" 127.0.0.1 "$parallax_port" "$rows" postgres postgres
kill "$server"
wait "$server" 2>/dev/null || true
trap - EXIT
echo "== PostgreSQL ($pg_host:$pg_port, database $pg_database), $rows rows"
# The postmaster (a backend's parent): its reaped children's CPU is the backends' (run.sh's SERVER_PID).
backend=$(psql -X -A -t -h "$pg_host" -p "$pg_port" -U "$pg_user" -d "$pg_database" -c 'select pg_backend_pid()')
postmaster=$(awk '/^PPid:/ { print $2 }' "/proc/$backend/status" 2>/dev/null || true)
SERVER_PID=$postmaster "$here/run.sh" "$pg_host" "$pg_port" "$rows" "$pg_user" "$pg_database"

# tps of one script from a results file written by run.sh ("-" when the script failed).
tps() {
  awk -v script="== $2" '$0 == script { found = 1; next } /^== / { found = 0 }
    found && /^tps = / { printf "%.0f", $3; printed = 1; exit } END { if (!printed) printf "-" }' "$1"
}
# Server CPU microseconds per transaction of one script ("-" when not measured).
cpu() {
  awk -v script="== $2" '$0 == script { found = 1; next } /^== / { found = 0 }
    found && /^server CPU per transaction = / { printf "%.1f", $6; printed = 1; exit } END { if (!printed) printf "-" }' "$1"
}
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'
}
parallax_results="$here/results-127.0.0.1-$parallax_port.txt"
postgres_results="$here/results-${pg_host//\//_}-$pg_port.txt"
echo
echo "pgbench -M ${PGBENCH_MODE:-prepared} -n -c ${PGBENCH_CLIENTS:-4} -T ${PGBENCH_DURATION:-20} (after ${PGBENCH_WARMUP:-5} s warm-up), $rows rows, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD)"
printf '| %-30s | %12s | %14s | %21s |\n' "script" "Parallax tps" "PostgreSQL tps" "Parallax / PostgreSQL"
printf '|%s|%s|%s|%s|\n' "--------------------------------" "--------------" "----------------" "-----------------------"
declare -A parallax postgres
for script in select select-partitioned upsert upsert-partitioned; do
  parallax[$script]=$(tps "$parallax_results" "$script")
  postgres[$script]=$(tps "$postgres_results" "$script")
  printf '| %-30s | %12s | %14s | %21s |\n' "$script" "${parallax[$script]}" "${postgres[$script]}" \
    "$(ratio "${parallax[$script]}" "${postgres[$script]}")"
done
echo
for kind in select upsert; do
  echo "$kind partitioned / single: Parallax $(ratio "${parallax[$kind-partitioned]}" "${parallax[$kind]}"), PostgreSQL $(ratio "${postgres[$kind-partitioned]}" "${postgres[$kind]}")"
done
# The same comparison in server CPU per transaction (lower is better), which a loaded machine
# hardly moves; its ratios are single / partitioned and PostgreSQL / Parallax, so above 1 is the
# target's side as for tps.
echo
printf '| %-30s | %18s | %20s | %21s |\n' "script" "Parallax CPU us/tx" "PostgreSQL CPU us/tx" "PostgreSQL / Parallax"
printf '|%s|%s|%s|%s|\n' "--------------------------------" "--------------------" "----------------------" "-----------------------"
declare -A parallax_cpu postgres_cpu
for script in select select-partitioned upsert upsert-partitioned; do
  parallax_cpu[$script]=$(cpu "$parallax_results" "$script")
  postgres_cpu[$script]=$(cpu "$postgres_results" "$script")
  printf '| %-30s | %18s | %20s | %21s |\n' "$script" "${parallax_cpu[$script]}" "${postgres_cpu[$script]}" \
    "$(ratio "${postgres_cpu[$script]}" "${parallax_cpu[$script]}")"
done
echo
for kind in select upsert; do
  echo "$kind single / partitioned CPU per transaction: Parallax $(ratio "${parallax_cpu[$kind]}" "${parallax_cpu[$kind-partitioned]}"), PostgreSQL $(ratio "${postgres_cpu[$kind]}" "${postgres_cpu[$kind-partitioned]}")"
done
