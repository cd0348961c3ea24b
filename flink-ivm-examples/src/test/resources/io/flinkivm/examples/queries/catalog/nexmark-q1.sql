-- Nexmark q1, Currency Conversion: bid prices in euros.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q1.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q1.
SELECT
    auction,
    bidder,
    0.908 * price as price,
    `dateTime`,
    extra
FROM bid
