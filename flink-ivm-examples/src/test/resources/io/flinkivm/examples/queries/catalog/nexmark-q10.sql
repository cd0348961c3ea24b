-- Nexmark q10, Log to File System: every bid with its day and minute.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q10.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q10.
SELECT auction, bidder, price, `dateTime`, extra, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), DATE_FORMAT(`dateTime`, 'HH:mm')
FROM bid
