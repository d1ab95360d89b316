-- Stolen-item holds (issue 26): a moderator held the token's sale on the contract until
-- `held_until` (`SaleHeld`; a renewal replaces the row), or released it (`SaleReleased`: the row
-- goes). A hold whose end has passed is no hold: queries compare `held_until` with the time they
-- run (no clock event ends it). Written by projections/src/holds.rs.
CREATE TABLE sale_holds (
    nft_id     TEXT PRIMARY KEY,        -- "{chain}-{token}"
    held_until BIGINT NOT NULL,         -- Unix seconds: held while now < held_until
    evidence   TEXT,                    -- hash of the note of evidence (a police report); NULL without
    moderator  TEXT NOT NULL,           -- lower-case 0x hex
    held_at    BIGINT NOT NULL,         -- block time of the latest hold or renewal
    tx_hash    TEXT NOT NULL
);
