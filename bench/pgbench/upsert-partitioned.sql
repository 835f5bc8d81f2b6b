\set id random(1, 1000000000)
insert into p values (:id, md5(random()::text), now()) on conflict (id) do update set info = excluded.info, crt_time = excluded.crt_time;
