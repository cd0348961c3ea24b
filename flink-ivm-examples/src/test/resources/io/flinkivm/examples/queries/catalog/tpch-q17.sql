-- TPC-H Q17, the Small-Quantity-Order Revenue Query.
-- As the specification publishes it (dbgen's queries/17.sql) with qgen's default substitution parameters
-- (qgen -d, the validation values: BRAND = Brand#23, CONTAINER = MED BOX).
select
	sum(l_extendedprice) / 7.0 as avg_yearly
from
	lineitem,
	part
where
	p_partkey = l_partkey
	and p_brand = 'Brand#23'
	and p_container = 'MED BOX'
	and l_quantity < (
		select
			0.2 * avg(l_quantity)
		from
			lineitem
		where
			l_partkey = p_partkey
	)
