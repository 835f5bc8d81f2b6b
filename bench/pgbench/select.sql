\set id random(1, 10000000)
select * from test where id = :id;
