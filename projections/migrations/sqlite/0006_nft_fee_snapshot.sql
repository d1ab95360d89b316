-- The service fee the token's current sale pays, in basis points: the contract snapshots the fee
-- when a sale or an auction starts (`ServiceFeeSnapshotted`), so a later fee change never applies
-- to it. 0 when the token is not for sale.
ALTER TABLE nfts ADD COLUMN fee_bps BIGINT NOT NULL DEFAULT 0;
