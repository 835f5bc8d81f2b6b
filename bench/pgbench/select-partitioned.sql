\set id random(1, 10000000)
select * from p where id = :id;
