-- Nexmark q23, Expand bids with their bidder and the bidder's auctions.
-- As the nexmark repository publishes it for Flink (nexmark-flink/src/main/resources/queries/q23.sql), without its
-- CREATE TABLE and INSERT INTO nexmark_q23, with A.`dateTime` quoted (flink-ivm's parser, Calcite's, reads an unquoted
-- DATETIME as the start of a literal).
SELECT bidder,
       price,
       channel,
       url,
       B.extra    AS bid_extra,
       P.id       AS person_id,
       name,
       emailAddress,
       creditCard,
       city,
       state,
       P.extra    AS person_extra,
       itemName,
       description,
       initialBid,
       reserve,
       A.`dateTime` AS auction_dateTime,
       expires,
       seller,
       category,
       A.extra    AS auction_extra
FROM bid B
         JOIN
     person P ON P.id = B.bidder
         JOIN
     auction A ON A.seller = B.bidder
