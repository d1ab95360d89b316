-- An outbid's new top bid is kept on its notice: reading it back from the BID_RECEIVED of the
-- same transaction took a correlated lookup per OUTBID row of every page (27 s on Postgres at
-- 1,000,000 NFTs). The notices model keeps each token's top bid amount beside its bidder and
-- transaction, and writes it into the OUTBID it tells.
ALTER TABLE notices ADD COLUMN top_amount TEXT;
ALTER TABLE notice_tokens ADD COLUMN bid_amount TEXT;

-- Rows folded before: one join of the outbids (and the open top bids) to the bids of their
-- transactions, rather than a lookup per row.
UPDATE notices SET top_amount = b.amount
FROM notices b
WHERE notices.kind = 'OUTBID' AND b.kind = 'BID_RECEIVED' AND b.tx_hash = notices.tx_hash
  AND b.nft_id = notices.nft_id AND b.position < notices.position;
UPDATE notice_tokens SET bid_amount = b.amount
FROM notices b
WHERE notice_tokens.bid_tx IS NOT NULL AND b.kind = 'BID_RECEIVED' AND b.tx_hash = notice_tokens.bid_tx
  AND b.nft_id = notice_tokens.nft_id;

-- A user's page of notices merges one ordered read per recipient key (each of their wallets and
-- `user:{id}`): the index gives each key's notices in the page's own order, newest first with
-- the kind ascending breaking ties, so the merge reads only the page and the rows before it.
DROP INDEX notices_recipient;
CREATE INDEX notices_recipient ON notices (recipient, position DESC, kind);
