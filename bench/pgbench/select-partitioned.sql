\set id random(1, :rows)
select * from p where id = :id;
