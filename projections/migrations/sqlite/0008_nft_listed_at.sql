-- When the token was last put on sale (fixed price or auction; a later price change is no new
-- listing): explore's "most recent" order, where a relisted NFT comes back to the top. Its mint
-- time until it is first listed. Existing rows take it from their history, as a replay would.
ALTER TABLE nfts ADD COLUMN listed_at BIGINT NOT NULL DEFAULT 0;
UPDATE nfts SET listed_at = COALESCE(
    (SELECT MAX(h.at) FROM nft_history h
     WHERE h.nft_id = nfts.nft_id AND h.type_of_event IN ('PUT_ON_FIXEDSALE', 'PUT_ON_AUCTION')),
    minted_at);
