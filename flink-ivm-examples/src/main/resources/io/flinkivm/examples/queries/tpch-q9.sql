-- TPC-H Q9, the Product Type Profit Measure Query: its join and aggregate.
-- TPC-H, as the specification publishes it (dbgen's queries/9.sql, "Functional Query Definition, Approved
-- February 1998") with qgen's default substitution parameters (qgen -d, the validation values: COLOR = green),
-- without ORDER BY and LIMIT, which a maintained view does not have.
-- flink-ivm reads no derived table in FROM: the published query's inner SELECT ... FROM (...) AS profit
-- is flattened into this one SELECT, its aliases nation and o_year become the output names, amount
-- goes into the SUM, and GROUP BY nation, o_year names their expressions n_name and
-- extract(year from o_orderdate). The result is the published query's.
-- schema:
--  part(p_partkey BIGINT NOT NULL, p_name VARCHAR(55), p_mfgr VARCHAR(25), p_brand VARCHAR(10), p_type VARCHAR(25), p_size INT, p_container VARCHAR(10), p_retailprice DECIMAL(15, 2), p_comment VARCHAR(23), PRIMARY KEY (p_partkey) NOT ENFORCED);
--  supplier(s_suppkey BIGINT NOT NULL, s_name VARCHAR(25), s_address VARCHAR(40), s_nationkey BIGINT, s_phone VARCHAR(15), s_acctbal DECIMAL(15, 2), s_comment VARCHAR(101), PRIMARY KEY (s_suppkey) NOT ENFORCED);
--  lineitem(l_orderkey BIGINT NOT NULL, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT NOT NULL, l_quantity DECIMAL(15, 2), l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2), l_tax DECIMAL(15, 2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1), l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), l_comment VARCHAR(44), PRIMARY KEY (l_orderkey, l_linenumber) NOT ENFORCED);
--  partsupp(ps_partkey BIGINT NOT NULL, ps_suppkey BIGINT NOT NULL, ps_availqty INT, ps_supplycost DECIMAL(15, 2), ps_comment VARCHAR(199), PRIMARY KEY (ps_partkey, ps_suppkey) NOT ENFORCED);
--  orders(o_orderkey BIGINT NOT NULL, o_custkey BIGINT, o_orderstatus VARCHAR(1), o_totalprice DECIMAL(15, 2), o_orderdate DATE, o_orderpriority VARCHAR(15), o_clerk VARCHAR(15), o_shippriority INT, o_comment VARCHAR(79), PRIMARY KEY (o_orderkey) NOT ENFORCED);
--  nation(n_nationkey BIGINT NOT NULL, n_name VARCHAR(25), n_regionkey BIGINT, n_comment VARCHAR(152), PRIMARY KEY (n_nationkey) NOT ENFORCED)
select
	n_name as nation,
	extract(year from o_orderdate) as o_year,
	sum(l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity) as sum_profit
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
group by
	n_name,
	extract(year from o_orderdate)
