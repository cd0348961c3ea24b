-- Nexmark q22, Get URL Directories: bids with the first three directories of their url.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q22.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q22.
SELECT
    auction, bidder, price, channel,
    SPLIT_INDEX(url, '/', 3) as dir1,
    SPLIT_INDEX(url, '/', 4) as dir2,
    SPLIT_INDEX(url, '/', 5) as dir3 FROM bid
