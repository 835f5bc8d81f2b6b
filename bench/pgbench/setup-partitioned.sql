-- Fills the partitioned table p (created with its 1024 partitions by run.sh) with :rows rows.
insert into p select g, md5(random()::text), clock_timestamp() from generate_series(1, :rows) g;
