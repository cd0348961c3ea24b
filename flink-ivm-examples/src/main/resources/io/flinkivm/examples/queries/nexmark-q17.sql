-- Nexmark q17, Auction Statistics Report: per auction and day, the bids in three price ranks and the prices.
-- Nexmark, as the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q17.sql),
-- without its INSERT INTO nexmark_q17, with `dateTime` quoted (flink-ivm's parser, Calcite's, reads an unquoted
-- DATETIME as the start of a literal); the table as its DDL declares it (its VARCHAR is Flink's STRING).
-- schema:
--  bid(auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(3), extra STRING)
SELECT
     auction,
     DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') as `day`,
     count(*) AS total_bids,
     count(*) filter (where price < 10000) AS rank1_bids,
     count(*) filter (where price >= 10000 and price < 1000000) AS rank2_bids,
     count(*) filter (where price >= 1000000) AS rank3_bids,
     min(price) AS min_price,
     max(price) AS max_price,
     avg(price) AS avg_price,
     sum(price) AS sum_price
FROM bid
GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')
