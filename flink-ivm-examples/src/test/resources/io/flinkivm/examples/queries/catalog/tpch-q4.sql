-- TPC-H Q4, the Order Priority Checking Query.
-- As the specification publishes it (dbgen's queries/4.sql) with qgen's default substitution parameters
-- (qgen -d, the validation values: DATE = 1993-07-01), without ORDER BY, which a maintained view does not have.
select
	o_orderpriority,
	count(*) as order_count
from
	orders
where
	o_orderdate >= date '1993-07-01'
	and o_orderdate < date '1993-07-01' + interval '3' month
	and exists (
		select
			*
		from
			lineitem
		where
			l_orderkey = o_orderkey
			and l_commitdate < l_receiptdate
	)
group by
	o_orderpriority
