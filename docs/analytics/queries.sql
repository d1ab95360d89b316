-- Example queries on the read models (docs/read-models.md). Each runs unchanged on PostgreSQL
-- (in the `analytics` schema: SET search_path TO analytics) and on SQLite (the file
-- `marketplace read-file` names). `$1` is a parameter. Amounts are wei; CAST(... AS NUMERIC) * 1.0
-- adds them exactly on Postgres (as floats on SQLite).

-- name: volume_per_day
-- Sales and volume per UTC day (day = the day's first second, Unix time).
SELECT (at / 86400) * 86400 AS day, COUNT(*) AS sales, SUM(CAST(price AS NUMERIC) * 1.0) AS volume_wei
FROM sales
GROUP BY (at / 86400) * 86400
ORDER BY day;

-- name: top_creators
-- The ten creators whose tokens sold for the most, with how many sales.
SELECT n.creator, COUNT(*) AS sales, SUM(CAST(s.price AS NUMERIC) * 1.0) AS volume_wei
FROM sales s
JOIN nfts n ON n.nft_id = s.nft_id
GROUP BY n.creator
ORDER BY volume_wei DESC, n.creator
LIMIT 10;

-- name: wallet_trades
-- Every purchase and sale of the wallet $1 (lower-case 0x address), newest first.
SELECT s.at, s.nft_id, d.title, CASE WHEN s.buyer = $1 THEN 'BOUGHT' ELSE 'SOLD' END AS side,
       CASE WHEN s.buyer = $1 THEN s.seller ELSE s.buyer END AS counterparty, s.price AS price_wei
FROM sales s
LEFT JOIN nft_details d ON d.nft_id = s.nft_id
WHERE s.buyer = $1 OR s.seller = $1
ORDER BY s.position DESC;

-- name: royalties_per_creator
-- Royalties paid out of sales of each creator's tokens.
SELECT n.creator, COUNT(*) AS sales, SUM(CAST(s.royalties AS NUMERIC) * 1.0) AS royalties_wei
FROM sales s
JOIN nfts n ON n.nft_id = s.nft_id
GROUP BY n.creator
ORDER BY royalties_wei DESC, n.creator;
