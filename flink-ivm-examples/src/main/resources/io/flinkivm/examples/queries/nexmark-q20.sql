-- Nexmark q20, Expand bid with auction: bids with their auction's information where the category is 10.
-- Nexmark, as the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q20.sql),
-- without its INSERT INTO nexmark_q20; the tables as its DDL declares them (its VARCHAR is Flink's STRING), with
-- their keys.
-- schema:
--  auction(id BIGINT NOT NULL, `itemName` STRING, description STRING, `initialBid` BIGINT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING, PRIMARY KEY (id) NOT ENFORCED);
--  bid(auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(3), extra STRING)
SELECT
    auction, bidder, price, channel, url, B.`dateTime`, B.extra,
    itemName, description, initialBid, reserve, A.`dateTime`, expires, seller, category, A.extra
FROM
    bid AS B INNER JOIN auction AS A on B.auction = A.id
WHERE A.category = 10
