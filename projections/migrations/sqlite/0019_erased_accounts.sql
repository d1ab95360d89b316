-- Erased accounts (issue 28). An erased person's row stays, so what they did on chain (NFTs,
-- sales, bids) keeps an owner to join to, but nothing personal is left in it: the e-mail column
-- holds the user id (never an address), the username `deleted-` and 22 characters of the id
-- (a prefix no one may register), the name, bio, phone, avatar and cover are empty. A replay
-- after the erasure builds the same row: the sealed fields read blank once the key is gone.
ALTER TABLE users ADD COLUMN erased_at BIGINT;
