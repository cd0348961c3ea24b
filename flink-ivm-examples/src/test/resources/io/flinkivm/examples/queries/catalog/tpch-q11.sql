-- TPC-H Q11, the Important Stock Identification Query.
-- As the specification publishes it (dbgen's queries/11.sql) with qgen's default substitution parameters
-- (qgen -d, the validation values: NATION = GERMANY, FRACTION = 0.0001), without ORDER BY, which a maintained view
-- does not have, and with `value` quoted, a reserved word in Flink SQL.
select
	ps_partkey,
	sum(ps_supplycost * ps_availqty) as `value`
from
	partsupp,
	supplier,
	nation
where
	ps_suppkey = s_suppkey
	and s_nationkey = n_nationkey
	and n_name = 'GERMANY'
group by
	ps_partkey having
		sum(ps_supplycost * ps_availqty) > (
			select
				sum(ps_supplycost * ps_availqty) * 0.0001
			from
				partsupp,
				supplier,
				nation
			where
				ps_suppkey = s_suppkey
				and s_nationkey = n_nationkey
				and n_name = 'GERMANY'
		)
