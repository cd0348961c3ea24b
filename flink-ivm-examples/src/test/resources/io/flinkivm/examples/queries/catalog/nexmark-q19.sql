-- Nexmark q19, Auction Top-10 Price: each auction's ten highest bids.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q19.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q19.
SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10
