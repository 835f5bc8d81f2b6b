#!/usr/bin/env bash
# The seed's pgbench experiment (issue 4): point selects and upserts on a single table and on a
# table of 1024 hash partitions, -M prepared -n -c 4 -j 2 -T 20, against one server.
#
#   bench/pgbench/run.sh HOST PORT [ROWS] [USER] [DATABASE]
#
# Run it once against `java -jar cli/target/parallax.jar serve --port 5433` and once against a
# PostgreSQL 15 on the same machine (e.g. psql -h /tmp/pgref -p 54329 -U postgres), in the same
# session, and compare the tps lines it prints (also written to bench/pgbench/results-HOST-PORT.txt).
# The select scripts draw ids from 1..ROWS (pgbench -D rows=ROWS); ROWS defaults to 10M as in the issue.
# PGBENCH_MODE (prepared), PGBENCH_DURATION (20 s) and PGBENCH_CLIENTS (4; threads: half) change the
# pgbench run; bench/pgbench/compare.sh runs this against both servers and prints one table.
# Every script first runs PGBENCH_WARMUP seconds (5) unrecorded, all four before the first one is
# measured, on both servers alike: a JVM server compiles its paths during the first seconds (a cold
# 5 s run measured a sixth of the warm rate) and PostgreSQL fills its buffer cache, and so no
# script is measured in the wake of the load or with code compiled for its own table only (the
# single-table scripts ran first and were measured before the partitioned ones had run at all).
# SERVER_PID (a process id on this machine: the Java process of parallax serve, or PostgreSQL's
# postmaster) adds the server's CPU time per transaction to each script's lines: user+system time
# of the process and of its reaped children (PostgreSQL's backends), from /proc. Unlike tps, it
# hardly moves when other processes load the machine; compare.sh prints both. With it, each script
# also waits until the server is idle first (settle below).
# Needs: PARTITION BY HASH and ON CONFLICT DO UPDATE on the server (issue 7 in Parallax).
set -euo pipefail
host=${1:?host}
port=${2:?port}
rows=${3:-10000000}
user=${4:-postgres}
database=${5:-postgres}
here=$(cd "$(dirname "$0")" && pwd)
psql_run() { psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$user" -d "$database" "$@"; }
results="$here/results-${host//\//_}-$port.txt"
mode=${PGBENCH_MODE:-prepared}
duration=${PGBENCH_DURATION:-20}
clients=${PGBENCH_CLIENTS:-4}
threads=$(( clients > 1 ? clients / 2 : 1 ))

psql_run -v rows="$rows" -f "$here/setup.sql"
{
  echo "drop table if exists p;"
  echo "create table p (id int primary key, info text, crt_time timestamp) partition by hash (id);"
  for i in $(seq 0 1023); do
    echo "create table p_$i partition of p for values with (modulus 1024, remainder $i);"
  done
} | psql_run
for ((first = 1; first <= rows; first += 200000)); do
  last=$((first + 199999 < rows ? first + 199999 : rows))
  psql_run -v first="$first" -v last="$last" -f "$here/setup-partitioned.sql"
done

: > "$results"
scripts=(select select-partitioned upsert upsert-partitioned)
pgbench_run() {
  pgbench -h "$host" -p "$port" -U "$user" -M "$mode" -n -c "$clients" -j "$threads" -T "$1" -D rows="$rows" -f "$here/$2.sql" "$database"
}
# CPU seconds, as clock ticks, the server process and its reaped children have used so far.
server_ticks() {
  awk '{ print $14 + $15 + $16 + $17 }' "/proc/$SERVER_PID/stat"
}
# Waits (60 s at most) until the idle server uses under 5% of a core for a second: a JVM still
# compiling what the warm-ups ran (JFR under load: C2 busy for 20 s after them) would bill its
# compiler threads to the first script measured, and PostgreSQL's last backends are reaped.
settle() {
  local hertz previous now
  hertz=$(getconf CLK_TCK)
  previous=$(server_ticks)
  for _ in $(seq 1 60); do
    sleep 1
    now=$(server_ticks)
    if (( (now - previous) * 20 < hertz )); then
      return
    fi
    previous=$now
  done
}
if [ "${PGBENCH_WARMUP:-5}" -gt 0 ]; then
  for script in "${scripts[@]}"; do
    pgbench_run "${PGBENCH_WARMUP:-5}" "$script" >/dev/null 2>&1 || true
  done
fi
for script in "${scripts[@]}"; do
  echo "== $script" | tee -a "$results"
  if [ -n "${SERVER_PID:-}" ]; then
    settle
    before=$(server_ticks)
  fi
  # A script the server cannot run yet (e.g. ON CONFLICT) reports its error and the others still run.
  output=$(pgbench_run "$duration" "$script" 2>&1 || true)
  if [ -n "${SERVER_PID:-}" ]; then
    sleep 1 # PostgreSQL's backends exit after pgbench hangs up: the postmaster reaps them (their CPU moves to it)
    after=$(server_ticks)
  fi
  echo "$output" | grep -E 'number of (transactions actually processed|failed transactions)|latency average|^tps|ERROR|error' | head -5 \
    | tee -a "$results" || true
  if [ -n "${SERVER_PID:-}" ]; then
    echo "$output" | awk -v ticks=$((after - before)) -v hertz="$(getconf CLK_TCK)" '
      /number of transactions actually processed/ { split($0, field, ": "); transactions = field[2] + 0 }
      END { if (transactions > 0) printf "server CPU per transaction = %.1f us\n", ticks / hertz / transactions * 1e6 }' \
      | tee -a "$results"
  fi
done
