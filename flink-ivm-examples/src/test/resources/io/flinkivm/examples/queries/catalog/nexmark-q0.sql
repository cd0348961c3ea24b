-- Nexmark q0, Pass Through: every bid.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q0.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q0.
SELECT auction, bidder, price, `dateTime`, extra FROM bid
