-- Nexmark q18, Find Last Bid: each bidder's last bid on each auction.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q18.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q18.
SELECT auction, bidder, price, channel, url, `dateTime`, extra
 FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number
       FROM bid)
 WHERE rank_number <= 1
