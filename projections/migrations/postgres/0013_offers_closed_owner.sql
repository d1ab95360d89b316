-- Whom a closed offer was made to: the NFT's owner when it closed (who accepted or rejected it,
-- or whom it was withdrawn from), so the owner's received offers keep it after the NFT changes
-- hands. Rows folded before this migration have none (they read as before: to the current
-- owner, an accepted one to its seller) until `marketplace replay`.
ALTER TABLE offers ADD COLUMN closed_owner TEXT;
CREATE INDEX offers_closed_owner ON offers (closed_owner, position);
