-- Nexmark q2, Selection: the bids of every 123rd auction.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q2.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q2.
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0
