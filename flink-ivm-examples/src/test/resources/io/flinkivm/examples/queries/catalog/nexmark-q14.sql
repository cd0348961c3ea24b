-- Nexmark q14, Calculation: bids with a converted price, a time of day and a user-defined function's count.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q14.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q14; its CREATE FUNCTION count_char, the kit's Java class, is not declared here.
SELECT
    auction,
    bidder,
    0.908 * price as price,
    CASE
        WHEN HOUR(`dateTime`) >= 8 AND HOUR(`dateTime`) <= 18 THEN 'dayTime'
        WHEN HOUR(`dateTime`) <= 6 OR HOUR(`dateTime`) >= 20 THEN 'nightTime'
        ELSE 'otherTime'
    END AS bidTimeType,
    `dateTime`,
    extra,
    count_char(extra, 'c') AS c_counts
FROM bid
WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000
