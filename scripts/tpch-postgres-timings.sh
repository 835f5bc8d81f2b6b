#!/usr/bin/env bash
# Times the 22 TPC-H queries on the reference PostgreSQL 15 with 2 workers per Gather, the peer of
# docs/BENCHMARKS.md's TPC-H table:
#   scripts/tpch-postgres-timings.sh [database] [runs]      (defaults: tpch1, 5)
# The database is the one scripts/tpch-reference-answers.sh 1 tpch1 loaded (the same rows as
# Parallax's CALL dbgen(sf => 1)). Each query runs once to warm the cache, then [runs] times; the
# median of psql's \timing (client round trip included, rows printed to /dev/null) is printed in ms.
# Q15 creates its view first and times the SELECT alone.
set -euo pipefail
cd "$(dirname "$0")/.."
database="${1:-tpch1}"
runs="${2:-5}"
export PGHOST="${PGHOST:-/tmp/pgref}" PGPORT="${PGPORT:-54329}" PGUSER="${PGUSER:-postgres}"
settings="SET max_parallel_workers_per_gather = 2;"
for number in $(seq 1 22); do
  file="queries/tpch/q${number}.sql"
  before="" ; query="" ; after=""
  if [ "$number" = 15 ]; then
    before="$(awk 'BEGIN{RS=";"} NR==1' "$file");"
    query="$(awk 'BEGIN{RS=";"} NR==2' "$file");"
    after="drop view revenue0;"
  else
    query="$(cat "$file")"
  fi
  script="$settings $before"$'\n'"$query"$'\n''\timing on'
  for run in $(seq 1 "$runs"); do
    script+=$'\n'"$query"
  done
  script+=$'\n''\timing off'$'\n'"$after"
  times=$(psql -X -q -d "$database" -v ON_ERROR_STOP=1 <<< "$script" | grep '^Time:' | awk '{print $2}' | sort -n)
  median=$(echo "$times" | awk '{a[NR]=$1} END{if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}')
  echo "q${number} ${median}"
done
