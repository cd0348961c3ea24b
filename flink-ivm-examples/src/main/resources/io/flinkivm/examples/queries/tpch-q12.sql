-- TPC-H Q12, the Shipping Modes and Order Priority Query.
-- TPC-H, as the specification publishes it (dbgen's queries/12.sql, "Functional Query Definition, Approved
-- February 1998") with qgen's default substitution parameters (qgen -d, the validation values: SHIPMODE1 = MAIL, SHIPMODE2 = SHIP, DATE = 1994-01-01),
-- without ORDER BY and LIMIT, which a maintained view does not have.
-- schema:
--  orders(o_orderkey BIGINT NOT NULL, o_custkey BIGINT, o_orderstatus VARCHAR(1), o_totalprice DECIMAL(15, 2), o_orderdate DATE, o_orderpriority VARCHAR(15), o_clerk VARCHAR(15), o_shippriority INT, o_comment VARCHAR(79), PRIMARY KEY (o_orderkey) NOT ENFORCED);
--  lineitem(l_orderkey BIGINT NOT NULL, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT NOT NULL, l_quantity DECIMAL(15, 2), l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2), l_tax DECIMAL(15, 2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1), l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), l_comment VARCHAR(44), PRIMARY KEY (l_orderkey, l_linenumber) NOT ENFORCED)
select
	l_shipmode,
	sum(case
		when o_orderpriority = '1-URGENT'
			or o_orderpriority = '2-HIGH'
			then 1
		else 0
	end) as high_line_count,
	sum(case
		when o_orderpriority <> '1-URGENT'
			and o_orderpriority <> '2-HIGH'
			then 1
		else 0
	end) as low_line_count
from
	orders,
	lineitem
where
	o_orderkey = l_orderkey
	and l_shipmode in ('MAIL', 'SHIP')
	and l_commitdate < l_receiptdate
	and l_shipdate < l_commitdate
	and l_receiptdate >= date '1994-01-01'
	and l_receiptdate < date '1994-01-01' + interval '1' year
group by
	l_shipmode
