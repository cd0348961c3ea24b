-- TPC-H Q13, the Customer Distribution Query.
-- As the specification publishes it (dbgen's queries/13.sql) with qgen's default substitution parameters
-- (qgen -d, the validation values: WORD1 = special, WORD2 = requests), without ORDER BY, which a maintained view does not have.
select
	c_count,
	count(*) as custdist
from
	(
		select
			c_custkey,
			count(o_orderkey)
		from
			customer left outer join orders on
				c_custkey = o_custkey
				and o_comment not like '%special%requests%'
		group by
			c_custkey
	) as c_orders (c_custkey, c_count)
group by
	c_count
