-- TPC-H Q9, the Product Type Profit Measure Query.
-- As the specification publishes it (dbgen's queries/9.sql) with qgen's default substitution parameters
-- (qgen -d, the validation values: COLOR = green), without ORDER BY, which a maintained view does not have.
-- PublishedQuery's tpch-q9 is this query with its derived table flattened by hand.
select
	nation,
	o_year,
	sum(amount) as sum_profit
from
	(
		select
			n_name as nation,
			extract(year from o_orderdate) as o_year,
			l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
		from
			part,
			supplier,
			lineitem,
			partsupp,
			orders,
			nation
		where
			s_suppkey = l_suppkey
			and ps_suppkey = l_suppkey
			and ps_partkey = l_partkey
			and p_partkey = l_partkey
			and o_orderkey = l_orderkey
			and s_nationkey = n_nationkey
			and p_name like '%green%'
	) as profit
group by
	nation,
	o_year
