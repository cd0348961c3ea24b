-- TPC-H Q18, the Large Volume Customer Query.
-- As the specification publishes it (dbgen's queries/18.sql) with qgen's default substitution parameters
-- (qgen -d, the validation values: QUANTITY = 300), without ORDER BY and LIMIT, which a maintained view does not have.
select
	c_name,
	c_custkey,
	o_orderkey,
	o_orderdate,
	o_totalprice,
	sum(l_quantity)
from
	customer,
	orders,
	lineitem
where
	o_orderkey in (
		select
			l_orderkey
		from
			lineitem
		group by
			l_orderkey having
				sum(l_quantity) > 300
	)
	and c_custkey = o_custkey
	and o_orderkey = l_orderkey
group by
	c_name,
	c_custkey,
	o_orderkey,
	o_orderdate,
	o_totalprice
