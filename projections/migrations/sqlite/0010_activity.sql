-- Activity (issue 21): `nft_history` becomes the market's activity feed. Each row gets its
-- activity kind (MINT, LIST, PRICE, BID, SALE, TRANSFER, STOP, BURN, OFFER), its price (wei:
-- a listing's price or an auction's start price, a new price, a bid, a sale's price, an offer)
-- and its counterpart (a sale's seller, a transfer's receiver, the owner a bid was made to).
-- New rows, which the spec's history leaves out: PRICE_CHANGED, TRANSFERRED (but a sale's own
-- transfer) and OFFER_MADE.
--
-- Rows folded before this migration get what their tables still say exactly: kinds, sale and
-- bid prices, sellers, the owner a bid went to, and the transfers (from `owner_history`).
-- Listing prices, price changes and offers come with a replay (`marketplace replay`).
ALTER TABLE nft_history ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE nft_history ADD COLUMN price TEXT;
ALTER TABLE nft_history ADD COLUMN counterpart TEXT;

UPDATE nft_history SET kind = CASE type_of_event
    WHEN 'MINTED' THEN 'MINT'
    WHEN 'PUT_ON_AUCTION' THEN 'LIST'
    WHEN 'PUT_ON_FIXEDSALE' THEN 'LIST'
    WHEN 'REMOVED_FROM_SALE' THEN 'STOP'
    WHEN 'BIDDED_FOR' THEN 'BID'
    WHEN 'PURCHASED' THEN 'SALE'
    WHEN 'WON_AUCTION' THEN 'SALE'
    WHEN 'BURNED' THEN 'BURN'
    ELSE '' END;
UPDATE nft_history SET
    price = (SELECT s.price FROM sales s WHERE s.position = nft_history.position),
    counterpart = (SELECT s.seller FROM sales s WHERE s.position = nft_history.position)
WHERE type_of_event IN ('PURCHASED', 'WON_AUCTION');
UPDATE nft_history SET
    price = (SELECT b.amount FROM bids b WHERE b.position = nft_history.position),
    counterpart = (SELECT o.owner FROM owner_history o WHERE o.nft_id = nft_history.nft_id
                   AND o.position < nft_history.position ORDER BY o.position DESC LIMIT 1)
WHERE type_of_event = 'BIDDED_FOR';
-- A transfer is an owner after the first (the mint) whose transaction sold nothing.
INSERT INTO nft_history (position, nft_id, type_of_event, address, tx_hash, at, kind, counterpart)
SELECT o.position, o.nft_id, 'TRANSFERRED',
       (SELECT p.owner FROM owner_history p WHERE p.nft_id = o.nft_id AND p.position < o.position
        ORDER BY p.position DESC LIMIT 1),
       o.tx_hash, o.at, 'TRANSFER', o.owner
FROM owner_history o
WHERE EXISTS (SELECT 1 FROM owner_history p WHERE p.nft_id = o.nft_id AND p.position < o.position)
  AND NOT EXISTS (SELECT 1 FROM nft_history s WHERE s.nft_id = o.nft_id AND s.tx_hash = o.tx_hash
                  AND s.type_of_event IN ('PURCHASED', 'WON_AUCTION'));

-- The feed newest first is the primary key backwards; by kind; by NFT (and a collection's NFTs),
-- with their kind in the index so that a kind among them is read from it alone; by who did it,
-- by who it was done to.
DROP INDEX nft_history_nft;
CREATE INDEX nft_history_nft ON nft_history (nft_id, kind, position);
CREATE INDEX nft_history_kind ON nft_history (kind, position);
CREATE INDEX nft_history_address ON nft_history (address, position);
CREATE INDEX nft_history_counterpart ON nft_history (counterpart, position) WHERE counterpart IS NOT NULL;
