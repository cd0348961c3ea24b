-- TPC-H Q15, the Top Supplier Query.
-- As the specification publishes it, in its approved variant with a WITH clause in place of CREATE VIEW
-- revenue0 (the form the kits that run one statement use), with qgen's default substitution parameters
-- (qgen -d, the validation values: DATE = 1996-01-01), without ORDER BY, which a maintained view does not have.
with revenue0 (supplier_no, total_revenue) as (
	select
		l_suppkey,
		sum(l_extendedprice * (1 - l_discount))
	from
		lineitem
	where
		l_shipdate >= date '1996-01-01'
		and l_shipdate < date '1996-01-01' + interval '3' month
	group by
		l_suppkey
)
select
	s_suppkey,
	s_name,
	s_address,
	s_phone,
	total_revenue
from
	supplier,
	revenue0
where
	s_suppkey = supplier_no
	and total_revenue = (
		select
			max(total_revenue)
		from
			revenue0
	)
