-- The seed article's tables (digoal, PostgreSQL 12 partition pruning): a single table and a table of
-- 1024 hash partitions, both with a primary key on id, filled with :rows rows.
-- psql -v rows=10000000 -f setup.sql (the partitions of p are created by run.sh, one statement each,
-- because Parallax has no DO blocks).
drop table if exists test;
create table test (id int primary key, info text, crt_time timestamp);
insert into test select g, md5(random()::text), clock_timestamp() from generate_series(1, :rows) g;
