-- Nexmark q3, Local Item Suggestion: who is selling in OR, ID or CA in category 10, and for what auction ids?
-- Nexmark, as the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q3.sql),
-- without its INSERT INTO nexmark_q3; the tables as its DDL declares them (its VARCHAR is Flink's STRING), with
-- their keys.
-- schema:
--  person(id BIGINT NOT NULL, name STRING, `emailAddress` STRING, `creditCard` STRING, city STRING, state STRING, `dateTime` TIMESTAMP(3), extra STRING, PRIMARY KEY (id) NOT ENFORCED);
--  auction(id BIGINT NOT NULL, `itemName` STRING, description STRING, `initialBid` BIGINT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING, PRIMARY KEY (id) NOT ENFORCED)
SELECT
    P.name, P.city, P.state, A.id
FROM
    auction AS A INNER JOIN person AS P on A.seller = P.id
WHERE
    A.category = 10 and (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')
