-- Fills rows :first..:last of the partitioned table p (created with its 1024 partitions by run.sh).
-- run.sh loads it in slices of 200,000 rows: one INSERT of millions of rows into 1024 partitions
-- ran Parallax out of Java heap (2026-11-22, commit 1dec35b).
insert into p select g, md5(random()::text), clock_timestamp() from generate_series(:first, :last) g;
