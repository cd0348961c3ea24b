-- TPC-H Q5, the Local Supplier Volume Query.
-- TPC-H, as the specification publishes it (dbgen's queries/5.sql, "Functional Query Definition, Approved
-- February 1998") with qgen's default substitution parameters (qgen -d, the validation values: REGION = ASIA, DATE = 1994-01-01),
-- without ORDER BY and LIMIT, which a maintained view does not have.
-- schema:
--  customer(c_custkey BIGINT NOT NULL, c_name VARCHAR(25), c_address VARCHAR(40), c_nationkey BIGINT, c_phone VARCHAR(15), c_acctbal DECIMAL(15, 2), c_mktsegment VARCHAR(10), c_comment VARCHAR(117), PRIMARY KEY (c_custkey) NOT ENFORCED);
--  orders(o_orderkey BIGINT NOT NULL, o_custkey BIGINT, o_orderstatus VARCHAR(1), o_totalprice DECIMAL(15, 2), o_orderdate DATE, o_orderpriority VARCHAR(15), o_clerk VARCHAR(15), o_shippriority INT, o_comment VARCHAR(79), PRIMARY KEY (o_orderkey) NOT ENFORCED);
--  lineitem(l_orderkey BIGINT NOT NULL, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT NOT NULL, l_quantity DECIMAL(15, 2), l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2), l_tax DECIMAL(15, 2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1), l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), l_comment VARCHAR(44), PRIMARY KEY (l_orderkey, l_linenumber) NOT ENFORCED);
--  supplier(s_suppkey BIGINT NOT NULL, s_name VARCHAR(25), s_address VARCHAR(40), s_nationkey BIGINT, s_phone VARCHAR(15), s_acctbal DECIMAL(15, 2), s_comment VARCHAR(101), PRIMARY KEY (s_suppkey) NOT ENFORCED);
--  nation(n_nationkey BIGINT NOT NULL, n_name VARCHAR(25), n_regionkey BIGINT, n_comment VARCHAR(152), PRIMARY KEY (n_nationkey) NOT ENFORCED);
--  region(r_regionkey BIGINT NOT NULL, r_name VARCHAR(25), r_comment VARCHAR(152), PRIMARY KEY (r_regionkey) NOT ENFORCED)
select
	n_name,
	sum(l_extendedprice * (1 - l_discount)) as revenue
from
	customer,
	orders,
	lineitem,
	supplier,
	nation,
	region
where
	c_custkey = o_custkey
	and l_orderkey = o_orderkey
	and l_suppkey = s_suppkey
	and c_nationkey = s_nationkey
	and s_nationkey = n_nationkey
	and n_regionkey = r_regionkey
	and r_name = 'ASIA'
	and o_orderdate >= date '1994-01-01'
	and o_orderdate < date '1994-01-01' + interval '1' year
group by
	n_name
