-- TPC-H Q1, the Pricing Summary Report Query.
-- TPC-H, as the specification publishes it (dbgen's queries/1.sql, "Functional Query Definition, Approved
-- February 1998") with qgen's default substitution parameters (qgen -d, the validation values: DELTA = 90),
-- without ORDER BY and LIMIT, which a maintained view does not have.
-- schema:
--  lineitem(l_orderkey BIGINT NOT NULL, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT NOT NULL, l_quantity DECIMAL(15, 2), l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2), l_tax DECIMAL(15, 2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1), l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), l_comment VARCHAR(44), PRIMARY KEY (l_orderkey, l_linenumber) NOT ENFORCED)
select
	l_returnflag,
	l_linestatus,
	sum(l_quantity) as sum_qty,
	sum(l_extendedprice) as sum_base_price,
	sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
	sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
	avg(l_quantity) as avg_qty,
	avg(l_extendedprice) as avg_price,
	avg(l_discount) as avg_disc,
	count(*) as count_order
from
	lineitem
where
	l_shipdate <= date '1998-12-01' - interval '90' day (3)
group by
	l_returnflag,
	l_linestatus
