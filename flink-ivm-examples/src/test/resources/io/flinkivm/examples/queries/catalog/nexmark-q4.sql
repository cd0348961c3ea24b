-- Nexmark q4, Average Price for a Category: the average winning bid per category.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q4.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q4.
SELECT
    Q.category,
    AVG(Q.final)
FROM (
    SELECT MAX(B.price) AS final, A.category
    FROM auction A, bid B
    WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires
    GROUP BY A.id, A.category
) Q
GROUP BY Q.category
