#!/usr/bin/env bash
# Produces the reference answers of src-test's TPC-H tests with PostgreSQL 15:
#   scripts/tpch-reference-answers.sh <scale factor> <database>
# e.g. scripts/tpch-reference-answers.sh 0.01 tpch001 and scripts/tpch-reference-answers.sh 1 tpch1.
# 1. writes dbgen's data with the generator Parallax's CALL dbgen uses (io.trino.tpch, through
#    bench's TpchFiles) to $TPCH_DATA/tpch-sf<N>/<table>.tbl (default /tmp/tpchdata),
# 2. loads it into a fresh PostgreSQL database (the schema CALL dbgen creates),
# 3. runs queries/tpch/q1..q22.sql there, writing each answer, header line first, '|'-separated as
#    psql's unaligned output prints values, to src-test/src/test/resources/tpch/answers/sf<N>/qN.out.
# Connection: PGHOST/PGPORT/PGUSER (default: the reference server at /tmp/pgref, port 54329).
set -euo pipefail
cd "$(dirname "$0")/.."
scale="$1"
database="$2"
export PGHOST="${PGHOST:-/tmp/pgref}" PGPORT="${PGPORT:-54329}" PGUSER="${PGUSER:-postgres}"
data="${TPCH_DATA:-/tmp/tpchdata}"
answers="src-test/src/test/resources/tpch/answers/sf${scale}"
source scripts/jdk.sh
mvn -B -ntp -o -q -pl bench -am compile
mvn -B -ntp -o -q -pl bench dependency:build-classpath -Dmdep.outputFile="$PWD/target/bench.classpath"
# Generates the files unless they exist; prints their directory.
files="$(java -cp "bench/target/classes:$(cat target/bench.classpath)" dev.parallax.bench.TpchFiles "$scale" "$data")"
dropdb --if-exists "$database"
createdb "$database"
psql -X -q -v ON_ERROR_STOP=1 -d "$database" <<'SQL'
CREATE TABLE region (r_regionkey INTEGER NOT NULL, r_name CHAR(25) NOT NULL, r_comment VARCHAR(152));
CREATE TABLE nation (n_nationkey INTEGER NOT NULL, n_name CHAR(25) NOT NULL, n_regionkey INTEGER NOT NULL, n_comment VARCHAR(152));
CREATE TABLE part (p_partkey INTEGER NOT NULL, p_name VARCHAR(55) NOT NULL, p_mfgr CHAR(25) NOT NULL, p_brand CHAR(10) NOT NULL,
    p_type VARCHAR(25) NOT NULL, p_size INTEGER NOT NULL, p_container CHAR(10) NOT NULL, p_retailprice DECIMAL(15,2) NOT NULL,
    p_comment VARCHAR(23) NOT NULL);
CREATE TABLE supplier (s_suppkey INTEGER NOT NULL, s_name CHAR(25) NOT NULL, s_address VARCHAR(40) NOT NULL, s_nationkey INTEGER NOT NULL,
    s_phone CHAR(15) NOT NULL, s_acctbal DECIMAL(15,2) NOT NULL, s_comment VARCHAR(101) NOT NULL);
CREATE TABLE partsupp (ps_partkey INTEGER NOT NULL, ps_suppkey INTEGER NOT NULL, ps_availqty INTEGER NOT NULL,
    ps_supplycost DECIMAL(15,2) NOT NULL, ps_comment VARCHAR(199) NOT NULL);
CREATE TABLE customer (c_custkey INTEGER NOT NULL, c_name VARCHAR(25) NOT NULL, c_address VARCHAR(40) NOT NULL, c_nationkey INTEGER NOT NULL,
    c_phone CHAR(15) NOT NULL, c_acctbal DECIMAL(15,2) NOT NULL, c_mktsegment CHAR(10) NOT NULL, c_comment VARCHAR(117) NOT NULL);
CREATE TABLE orders (o_orderkey INTEGER NOT NULL, o_custkey INTEGER NOT NULL, o_orderstatus CHAR(1) NOT NULL, o_totalprice DECIMAL(15,2) NOT NULL,
    o_orderdate DATE NOT NULL, o_orderpriority CHAR(15) NOT NULL, o_clerk CHAR(15) NOT NULL, o_shippriority INTEGER NOT NULL,
    o_comment VARCHAR(79) NOT NULL);
CREATE TABLE lineitem (l_orderkey INTEGER NOT NULL, l_partkey INTEGER NOT NULL, l_suppkey INTEGER NOT NULL, l_linenumber INTEGER NOT NULL,
    l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL, l_discount DECIMAL(15,2) NOT NULL,
    l_tax DECIMAL(15,2) NOT NULL, l_returnflag CHAR(1) NOT NULL, l_linestatus CHAR(1) NOT NULL, l_shipdate DATE NOT NULL,
    l_commitdate DATE NOT NULL, l_receiptdate DATE NOT NULL, l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL,
    l_comment VARCHAR(44) NOT NULL);
SQL
for table in region nation part supplier partsupp customer orders lineitem; do
  psql -X -q -v ON_ERROR_STOP=1 -d "$database" -c "\\copy $table FROM '$files/$table.tbl' WITH (FORMAT text, DELIMITER '|')"
done
# Keys as dbgen's reference schema declares them, so PostgreSQL plans the queries sensibly (answers do not depend on them).
psql -X -q -v ON_ERROR_STOP=1 -d "$database" <<'SQL'
ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE orders ADD PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
CREATE INDEX ON lineitem (l_partkey, l_suppkey);
CREATE INDEX ON orders (o_custkey);
VACUUM ANALYZE;
SQL
mkdir -p "$answers"
for number in $(seq 1 22); do
  psql -X -q -A -F '|' -P footer=off -v ON_ERROR_STOP=1 -d "$database" -f "queries/tpch/q${number}.sql" > "$answers/q${number}.out"
done
echo "answers in $answers"
