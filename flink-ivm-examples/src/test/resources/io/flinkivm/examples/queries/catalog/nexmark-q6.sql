-- Nexmark q6, Average Selling Price by Seller: the average of each seller's last ten winning bids.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q6.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q6.
SELECT
    Q.seller,
    AVG(Q.price) OVER
        (PARTITION BY Q.seller ORDER BY Q.`dateTime` ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY A.id, A.seller ORDER BY B.price DESC) AS rownum
    FROM (SELECT A.id, A.seller, B.price, B.`dateTime`
        FROM auction AS A,
            bid AS B
        WHERE A.id = B.auction
            and B.`dateTime` between A.`dateTime` and A.expires)
    WHERE rownum <= 1
) AS Q
