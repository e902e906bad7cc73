-- Read-only PostgreSQL queries for rules/real_sql_test.ts. Each query starts
-- with a "-- corpus | source" line and ends with a line holding only ";".
--
-- tpch: the 22 queries of the TPC-H benchmark as written in the TPC-H
-- Specification (revision 3.0.1, clause 2.4), with the substitution
-- parameters of its validation run (clause 2.4.x.3). TPC-H is a trademark of
-- the Transaction Processing Performance Council; the query text is published
-- in the specification for implementers (TPC EULA).
--
-- pg_regress_style: written for this project in the style of the SELECT
-- statements of PostgreSQL's own regression tests (src/test/regress/sql/ of
-- postgres/postgres, PostgreSQL Licence), one per syntax node-sql-parser
-- could not read: typed literals, array subscripts and slices, casts to
-- array types, reserved words as aliases, geometric and bit operators,
-- WITHIN GROUP, GROUPING SETS, window frames with GROUPS and EXCLUDE,
-- WITH ORDINALITY, SUBSTRING ... FROM ... FOR, expressions in PARTITION BY,
-- CAST AS DEC, EXPLAIN. MIT, as the rest of this repository.

-- tpch | TPC-H Q1
select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty, sum(l_extendedprice) as sum_base_price,
  sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
  sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge, avg(l_quantity) as avg_qty,
  avg(l_extendedprice) as avg_price, avg(l_discount) as avg_disc, count(*) as count_order
from lineitem
where l_shipdate <= date '1998-12-01' - interval '90' day
group by l_returnflag, l_linestatus
order by l_returnflag, l_linestatus
;
-- tpch | TPC-H Q2
select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from part, supplier, partsupp, nation, region
where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = 15 and p_type like '%BRASS'
  and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = 'EUROPE'
  and ps_supplycost = (
    select min(ps_supplycost) from partsupp, supplier, nation, region
    where p_partkey = ps_partkey and s_suppkey = ps_suppkey and s_nationkey = n_nationkey
      and n_regionkey = r_regionkey and r_name = 'EUROPE')
order by s_acctbal desc, n_name, s_name, p_partkey
limit 100
;
-- tpch | TPC-H Q3
select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate, o_shippriority
from customer, orders, lineitem
where c_mktsegment = 'BUILDING' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < date '1995-03-15' and l_shipdate > date '1995-03-15'
group by l_orderkey, o_orderdate, o_shippriority
order by revenue desc, o_orderdate
limit 10
;
-- tpch | TPC-H Q4
select o_orderpriority, count(*) as order_count
from orders
where o_orderdate >= date '1993-07-01' and o_orderdate < date '1993-07-01' + interval '3' month
  and exists (select * from lineitem where l_orderkey = o_orderkey and l_commitdate < l_receiptdate)
group by o_orderpriority
order by o_orderpriority
;
-- tpch | TPC-H Q5
select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
from customer, orders, lineitem, supplier, nation, region
where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey
  and c_nationkey = s_nationkey and s_nationkey = n_nationkey and n_regionkey = r_regionkey
  and r_name = 'ASIA' and o_orderdate >= date '1994-01-01'
  and o_orderdate < date '1994-01-01' + interval '1' year
group by n_name
order by revenue desc
;
-- tpch | TPC-H Q6
select sum(l_extendedprice * l_discount) as revenue
from lineitem
where l_shipdate >= date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year
  and l_discount between .06 - 0.01 and .06 + 0.01 and l_quantity < 24
;
-- tpch | TPC-H Q7
select supp_nation, cust_nation, l_year, sum(volume) as revenue
from (
  select n1.n_name as supp_nation, n2.n_name as cust_nation,
    extract(year from l_shipdate) as l_year, l_extendedprice * (1 - l_discount) as volume
  from supplier, lineitem, orders, customer, nation n1, nation n2
  where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey
    and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey
    and ((n1.n_name = 'FRANCE' and n2.n_name = 'GERMANY')
      or (n1.n_name = 'GERMANY' and n2.n_name = 'FRANCE'))
    and l_shipdate between date '1995-01-01' and date '1996-12-31'
) as shipping
group by supp_nation, cust_nation, l_year
order by supp_nation, cust_nation, l_year
;
-- tpch | TPC-H Q8
select o_year, sum(case when nation = 'BRAZIL' then volume else 0 end) / sum(volume) as mkt_share
from (
  select extract(year from o_orderdate) as o_year, l_extendedprice * (1 - l_discount) as volume,
    n2.n_name as nation
  from part, supplier, lineitem, orders, customer, nation n1, nation n2, region
  where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey
    and o_custkey = c_custkey and c_nationkey = n1.n_nationkey and n1.n_regionkey = r_regionkey
    and r_name = 'AMERICA' and s_nationkey = n2.n_nationkey
    and o_orderdate between date '1995-01-01' and date '1996-12-31'
    and p_type = 'ECONOMY ANODIZED STEEL'
) as all_nations
group by o_year
order by o_year
;
-- tpch | TPC-H Q9
select nation, o_year, sum(amount) as sum_profit
from (
  select n_name as nation, extract(year from o_orderdate) as o_year,
    l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
  from part, supplier, lineitem, partsupp, orders, nation
  where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey
    and p_partkey = l_partkey and o_orderkey = l_orderkey and s_nationkey = n_nationkey
    and p_name like '%green%'
) as profit
group by nation, o_year
order by nation, o_year desc
;
-- tpch | TPC-H Q10
select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue, c_acctbal, n_name,
  c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= date '1993-10-01'
  and o_orderdate < date '1993-10-01' + interval '3' month and l_returnflag = 'R'
  and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by revenue desc
limit 20
;
-- tpch | TPC-H Q11
select ps_partkey, sum(ps_supplycost * ps_availqty) as value
from partsupp, supplier, nation
where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY'
group by ps_partkey
having sum(ps_supplycost * ps_availqty) > (
  select sum(ps_supplycost * ps_availqty) * 0.0001
  from partsupp, supplier, nation
  where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY')
order by value desc
;
-- tpch | TPC-H Q12
select l_shipmode,
  sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH' then 1 else 0 end)
    as high_line_count,
  sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end)
    as low_line_count
from orders, lineitem
where o_orderkey = l_orderkey and l_shipmode in ('MAIL', 'SHIP')
  and l_commitdate < l_receiptdate and l_shipdate < l_commitdate
  and l_receiptdate >= date '1994-01-01' and l_receiptdate < date '1994-01-01' + interval '1' year
group by l_shipmode
order by l_shipmode
;
-- tpch | TPC-H Q13
select c_count, count(*) as custdist
from (
  select c_custkey, count(o_orderkey)
  from customer left outer join orders on c_custkey = o_custkey
    and o_comment not like '%special%requests%'
  group by c_custkey
) as c_orders (c_custkey, c_count)
group by c_count
order by custdist desc, c_count desc
;
-- tpch | TPC-H Q14
select 100.00 * sum(case when p_type like 'PROMO%' then l_extendedprice * (1 - l_discount) else 0 end)
  / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from lineitem, part
where l_partkey = p_partkey and l_shipdate >= date '1995-09-01'
  and l_shipdate < date '1995-09-01' + interval '1' month
;
-- tpch | TPC-H Q15 (the view written as a WITH query, the specification's variant A)
with revenue0 (supplier_no, total_revenue) as (
  select l_suppkey, sum(l_extendedprice * (1 - l_discount))
  from lineitem
  where l_shipdate >= date '1996-01-01' and l_shipdate < date '1996-01-01' + interval '3' month
  group by l_suppkey)
select s_suppkey, s_name, s_address, s_phone, total_revenue
from supplier, revenue0
where s_suppkey = supplier_no and total_revenue = (select max(total_revenue) from revenue0)
order by s_suppkey
;
-- tpch | TPC-H Q16
select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
from partsupp, part
where p_partkey = ps_partkey and p_brand <> 'Brand#45' and p_type not like 'MEDIUM POLISHED%'
  and p_size in (49, 14, 23, 45, 19, 3, 36, 9)
  and ps_suppkey not in (select s_suppkey from supplier where s_comment like '%Customer%Complaints%')
group by p_brand, p_type, p_size
order by supplier_cnt desc, p_brand, p_type, p_size
;
-- tpch | TPC-H Q17
select sum(l_extendedprice) / 7.0 as avg_yearly
from lineitem, part
where p_partkey = l_partkey and p_brand = 'Brand#23' and p_container = 'MED BOX'
  and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey)
;
-- tpch | TPC-H Q18
select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 300)
  and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
order by o_totalprice desc, o_orderdate
limit 100
;
-- tpch | TPC-H Q19
select sum(l_extendedprice * (1 - l_discount)) as revenue
from lineitem, part
where (p_partkey = l_partkey and p_brand = 'Brand#12'
    and p_container in ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') and l_quantity >= 1
    and l_quantity <= 1 + 10 and p_size between 1 and 5 and l_shipmode in ('AIR', 'AIR REG')
    and l_shipinstruct = 'DELIVER IN PERSON')
  or (p_partkey = l_partkey and p_brand = 'Brand#23'
    and p_container in ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') and l_quantity >= 10
    and l_quantity <= 10 + 10 and p_size between 1 and 10 and l_shipmode in ('AIR', 'AIR REG')
    and l_shipinstruct = 'DELIVER IN PERSON')
  or (p_partkey = l_partkey and p_brand = 'Brand#34'
    and p_container in ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG') and l_quantity >= 20
    and l_quantity <= 20 + 10 and p_size between 1 and 15 and l_shipmode in ('AIR', 'AIR REG')
    and l_shipinstruct = 'DELIVER IN PERSON')
;
-- tpch | TPC-H Q20
select s_name, s_address
from supplier, nation
where s_suppkey in (
    select ps_suppkey from partsupp
    where ps_partkey in (select p_partkey from part where p_name like 'forest%')
      and ps_availqty > (
        select 0.5 * sum(l_quantity) from lineitem
        where l_partkey = ps_partkey and l_suppkey = ps_suppkey
          and l_shipdate >= date '1994-01-01' and l_shipdate < date '1994-01-01' + interval '1' year))
  and s_nationkey = n_nationkey and n_name = 'CANADA'
order by s_name
;
-- tpch | TPC-H Q21
select s_name, count(*) as numwait
from supplier, lineitem l1, orders, nation
where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
  and l1.l_receiptdate > l1.l_commitdate
  and exists (select * from lineitem l2
    where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
  and not exists (select * from lineitem l3
    where l3.l_orderkey = l1.l_orderkey and l3.l_suppkey <> l1.l_suppkey
      and l3.l_receiptdate > l3.l_commitdate)
  and s_nationkey = n_nationkey and n_name = 'SAUDI ARABIA'
group by s_name
order by numwait desc, s_name
limit 100
;
-- tpch | TPC-H Q22
select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal
from (
  select substring(c_phone from 1 for 2) as cntrycode, c_acctbal
  from customer
  where substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17')
    and c_acctbal > (select avg(c_acctbal) from customer
      where c_acctbal > 0.00 and substring(c_phone from 1 for 2) in ('13', '31', '23', '29', '30', '18', '17'))
    and not exists (select * from orders where o_custkey = c_custkey)
) as custsale
group by cntrycode
order by cntrycode
;
-- pg_regress_style | typed literals (float8.sql, jsonb.sql, bit.sql)
SELECT float8 '1.5' + f1, jsonb '{"a": [1, 2]}' -> 'a', B'1010' | B'0101', date '2024-01-01' FROM float8_tbl
;
-- pg_regress_style | array subscripts and slices (arrays.sql)
SELECT a[1], b[1:2][2], c[2:], d[:3] FROM arrtest WHERE a[1] < 5
;
-- pg_regress_style | casts to array types (arrays.sql)
SELECT '{1,2,3}'::int[] AS a, ARRAY[1, 2]::text[], CAST(f1 AS numeric(10, 2)[]) FROM arrtest
;
-- pg_regress_style | reserved words as aliases (select.sql)
SELECT unique1 AS "select", two AS "from", count(*) AS "order" FROM onek GROUP BY 1, 2
;
-- pg_regress_style | geometric operators (geometry.sql)
SELECT p1.f1, p2.f1, p1.f1 <-> p2.f1 AS dist FROM point_tbl p1, point_tbl p2 WHERE p1.f1 <@ box '(0,0,100,100)' ORDER BY dist
;
-- pg_regress_style | bit operators (bit.sql)
SELECT a & b AS "and", a | b AS "or", a # b AS "xor", ~a AS "not", a << 4 AS "shl" FROM bit_table
;
-- pg_regress_style | WITHIN GROUP (aggregates.sql)
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY thousand), mode() WITHIN GROUP (ORDER BY four) FROM tenk1
;
-- pg_regress_style | hypothetical-set aggregate (aggregates.sql)
SELECT rank(3) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (1), (2), (2), (3), (3), (4)) v(x)
;
-- pg_regress_style | GROUPING SETS (groupingsets.sql)
SELECT a, b, grouping(a, b), sum(v) FROM gstest1 GROUP BY GROUPING SETS ((a, b), (a), ())
;
-- pg_regress_style | ROLLUP and CUBE (groupingsets.sql)
SELECT a, b, sum(c) FROM gstest2 GROUP BY ROLLUP (a, b) UNION ALL SELECT a, b, sum(c) FROM gstest2 GROUP BY CUBE (a, b)
;
-- pg_regress_style | window frame GROUPS with EXCLUDE (window.sql)
SELECT sum(unique1) OVER (ORDER BY four GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM tenk1 WHERE unique1 < 10
;
-- pg_regress_style | window frame RANGE with an offset (window.sql)
SELECT sum(unique1) OVER (ORDER BY unique1 RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE TIES) FROM tenk1
;
-- pg_regress_style | expressions in PARTITION BY (window.sql)
SELECT four, ten, sum(ten) OVER (PARTITION BY four % 2, ten / 3 ORDER BY ten) FROM tenk1
;
-- pg_regress_style | a named window (window.sql)
SELECT rank() OVER w, dense_rank() OVER w FROM tenk1 WINDOW w AS (PARTITION BY four ORDER BY ten)
;
-- pg_regress_style | WITH ORDINALITY (rangefuncs.sql)
SELECT * FROM unnest(ARRAY['a', 'b']) WITH ORDINALITY AS t(x, n)
;
-- pg_regress_style | ROWS FROM (rangefuncs.sql)
SELECT * FROM ROWS FROM (generate_series(1, 3), generate_series(10, 11)) AS t(a, b)
;
-- pg_regress_style | LATERAL (join.sql)
SELECT * FROM int4_tbl a, LATERAL (SELECT f1 FROM int8_tbl b WHERE b.q1 = a.f1) ss
;
-- pg_regress_style | SUBSTRING FROM FOR, OVERLAY, POSITION, TRIM (strings.sql)
SELECT substring('1234567890' FROM 3 FOR 4), overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4), position('high' IN 'ABChighDEF'), trim(BOTH 'x' FROM 'xxxabcxxx')
;
-- pg_regress_style | SIMILAR TO and regular expressions (strings.sql)
SELECT 'abcdefg' SIMILAR TO '_bcd%' AS s, 'abc' ~ '^a' AS r, 'ABC' ~* 'b' AS ri, regexp_replace('abc', 'b', 'x')
;
-- pg_regress_style | CAST AS DEC (numeric.sql)
SELECT CAST(val AS DEC(15, 4)), val::numeric(10, 2), CAST('1.5' AS double precision) FROM num_data
;
-- pg_regress_style | EXPLAIN (explain.sql)
EXPLAIN (COSTS OFF) SELECT * FROM tenk1 WHERE unique1 = 42
;
-- pg_regress_style | EXPLAIN of a join
EXPLAIN SELECT 1 FROM tenk1 a JOIN tenk1 b USING (unique1)
;
-- pg_regress_style | DISTINCT ON (select_distinct_on.sql)
SELECT DISTINCT ON (string4) string4, two, ten FROM onek ORDER BY string4, two, ten
;
-- pg_regress_style | FETCH FIRST WITH TIES (limit.sql)
SELECT thousand FROM onek WHERE thousand < 5 ORDER BY thousand FETCH FIRST 2 ROWS WITH TIES
;
-- pg_regress_style | OFFSET and LIMIT ALL (limit.sql)
SELECT unique1 FROM onek ORDER BY unique1 LIMIT ALL OFFSET 990
;
-- pg_regress_style | FILTER (aggregates.sql)
SELECT count(*) FILTER (WHERE four = 1), sum(ten) FILTER (WHERE ten > 5) FROM tenk1
;
-- pg_regress_style | ordered-set string_agg and array_agg with ORDER BY (aggregates.sql)
SELECT string_agg(a, ',' ORDER BY a DESC), array_agg(DISTINCT b ORDER BY b) FROM aggtest
;
-- pg_regress_style | recursive WITH with SEARCH and CYCLE (with.sql)
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SEARCH DEPTH FIRST BY n SET ord SELECT * FROM t ORDER BY ord
;
-- pg_regress_style | MATERIALIZED CTE (with.sql)
WITH x AS MATERIALIZED (SELECT * FROM tenk1) SELECT count(*) FROM x WHERE unique1 < 10
;
-- pg_regress_style | row comparison and IS DISTINCT FROM (rowtypes.sql)
SELECT ROW(1, 2) < ROW(1, 3), (a, b) IS DISTINCT FROM (1, 2) FROM int4_tbl
;
-- pg_regress_style | ANY and ALL with arrays (arrays.sql)
SELECT 1 = ANY (ARRAY[1, 2]), 3 > ALL ('{1,2}'::int[]), f1 = ANY (SELECT q1 FROM int8_tbl) FROM int4_tbl
;
-- pg_regress_style | ARRAY subquery and array constructors (arrays.sql)
SELECT ARRAY(SELECT f1 FROM int4_tbl), ARRAY[[1, 2], [3, 4]], array_length(ARRAY[1, 2], 1)
;
-- pg_regress_style | JSON path and operators (jsonb_jsonpath.sql)
SELECT jsonb_path_query('{"a": [1, 2]}', '$.a[*] ? (@ > 1)'), '{"a": 1}'::jsonb @> '{"a": 1}', j #>> '{a,b}' FROM testjsonb
;
-- pg_regress_style | SQL/JSON constructors (sqljson.sql)
SELECT JSON_OBJECT('a': 1, 'b': 'x'), JSON_ARRAY(1, 2, 3), JSON_VALUE(jsonb '{"a": 1}', '$.a' RETURNING int)
;
-- pg_regress_style | JSON_TABLE (sqljson_jsontable.sql)
SELECT * FROM JSON_TABLE(jsonb '[{"a": 1}]', '$[*]' COLUMNS (a int PATH '$.a')) AS jt
;
-- pg_regress_style | interval literals and AT TIME ZONE (timestamptz.sql)
SELECT timestamptz '2024-01-01 00:00+00' AT TIME ZONE 'UTC', interval '1 day 2 hours' * 2, now() - interval '1' hour
;
-- pg_regress_style | EXTRACT and date_trunc (date.sql)
SELECT EXTRACT(EPOCH FROM timestamp '2024-01-01'), date_trunc('month', f1), f1 + 1 FROM date_tbl
;
-- pg_regress_style | COLLATE (collate.sql)
SELECT a, b FROM collate_test1 ORDER BY b COLLATE "C", a
;
-- pg_regress_style | NATURAL and FULL joins (join.sql)
SELECT * FROM j1_tbl NATURAL FULL JOIN j2_tbl
;
-- pg_regress_style | USING with an alias (join.sql)
SELECT * FROM j1_tbl JOIN j2_tbl USING (i) AS x WHERE x.i = 1
;
-- pg_regress_style | TABLESAMPLE (tablesample.sql)
SELECT id FROM test_tablesample TABLESAMPLE SYSTEM (50) REPEATABLE (0)
;
-- pg_regress_style | VALUES as a query (select.sql)
VALUES (1, 'one'), (2, 'two') ORDER BY 1 DESC
;
-- pg_regress_style | TABLE command (select.sql)
TABLE int4_tbl
;
-- pg_regress_style | INTERSECT and EXCEPT ALL (union.sql)
SELECT q1 FROM int8_tbl INTERSECT ALL SELECT q2 FROM int8_tbl EXCEPT SELECT q1 FROM int8_tbl ORDER BY 1
;
-- pg_regress_style | schema-qualified operator (expressions.sql)
SELECT 2 OPERATOR(pg_catalog.+) 3, 1 OPERATOR(pg_catalog.<) 2
;
-- pg_regress_style | dollar quoting and escape strings (strings.sql)
SELECT $$it's$$ AS d, E'a\nb' AS e, U&'d\0061t\+000061' AS u, 'a'
  'b' AS c
;
-- pg_regress_style | CASE with subquery and COALESCE, NULLIF, GREATEST (case.sql)
SELECT CASE WHEN a > (SELECT max(b) FROM case2_tbl) THEN 'big' ELSE 'small' END, COALESCE(a, 0), NULLIF(a, 1), GREATEST(a, 2) FROM case_tbl
;
-- pg_regress_style | IS [NOT] TRUE/UNKNOWN and BETWEEN SYMMETRIC (boolean.sql)
SELECT f1 IS TRUE, f1 IS NOT UNKNOWN, 5 BETWEEN SYMMETRIC 10 AND 1 FROM bool_tbl
;
-- pg_regress_style | GROUP BY DISTINCT and HAVING without GROUP BY (groupingsets.sql)
SELECT a, count(*) FROM gstest4 GROUP BY DISTINCT ROLLUP (a), a HAVING count(*) > 1
;
-- pg_regress_style | OVERLAPS and pseudo-functions (horology.sql)
SELECT (date '2024-01-01', date '2024-02-01') OVERLAPS (date '2024-01-15', date '2024-03-01'), CURRENT_DATE, LOCALTIMESTAMP(2)
;
-- pg_regress_style | XML functions (xml.sql)
SELECT xmlelement(name foo, xmlattributes(1 AS bar), 'content'), xmlforest(a, b) FROM xmltest
;
-- pg_regress_style | regclass and system columns (misc.sql)
SELECT 'pg_class'::regclass, ctid, xmin, tableoid::regclass FROM onek LIMIT 1
;
-- pg_regress_style | IN list of rows and quantified comparisons (subselect.sql)
SELECT * FROM onek WHERE (unique1, unique2) IN (SELECT unique2, unique1 FROM onek) AND ten <> ALL (SELECT 1)
;
-- pg_regress_style | scalar subqueries in SELECT and ORDER BY (subselect.sql)
SELECT (SELECT max(unique1) FROM onek o2 WHERE o2.ten = o1.ten) AS m FROM onek o1 ORDER BY (SELECT 1)
;
-- pg_regress_style | FOR in a string is no locking clause
SELECT 'FOR UPDATE' AS x, "for" FROM (SELECT 1 AS "for") s
;
-- pg_regress_style | functions in FROM with column definitions (rangefuncs.sql)
SELECT * FROM json_to_record('{"a": 1, "b": "x"}') AS x(a int, b text)
;
-- pg_regress_style | generate_series with a timestamp step (timestamp.sql)
SELECT d::date FROM generate_series(timestamp '2024-01-01', timestamp '2024-01-10', interval '1 day') AS g(d)
;
-- pg_regress_style | string_to_table and unnest of several arrays (arrays.sql)
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b', 'c']) AS u(n, s), string_to_table('a,b', ',') AS t(x)
;
-- pg_regress_style | ILIKE, NOT SIMILAR TO and ESCAPE (strings.sql)
SELECT 'ABC' ILIKE 'a%', 'abc' NOT SIMILAR TO 'x%', 'a_c' LIKE 'a!_c' ESCAPE '!'
;
-- pg_regress_style | numeric literals (numeric.sql)
SELECT 1_000_000, 0x1F, 0o17, 0b101, 1.5e3, .5
;
-- pg_regress_style | quoted identifiers with case (case.sql)
SELECT "Foo"."Bar", "select".x FROM "Foo", (SELECT 1 AS x) AS "select"
;
