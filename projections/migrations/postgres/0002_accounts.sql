-- Accounts: one row per user, folded from its `user-<uuid>` stream. E-mail and mobile number
-- are private: only the user's own profile query returns them.
CREATE TABLE users (
    user_id        TEXT PRIMARY KEY,
    email          TEXT NOT NULL,      -- lower-cased at sign-up
    username       TEXT NOT NULL,      -- as chosen
    username_lower TEXT NOT NULL,      -- for case-insensitive look-ups
    full_name      TEXT NOT NULL,
    mobile_number  TEXT NOT NULL,
    bio            TEXT NOT NULL,
    avatar         TEXT,               -- CID in the file store
    cover_image    TEXT,               -- CID
    auth_provider  TEXT NOT NULL,      -- EMAIL | GOOGLE
    verified       BIGINT NOT NULL,    -- 0 or 1 (portable across the Any driver)
    created_at     BIGINT NOT NULL     -- Unix seconds
);
-- The claim streams keep these unique in the log; the indexes make the look-ups fast.
CREATE UNIQUE INDEX users_email ON users (email);
CREATE UNIQUE INDEX users_username_lower ON users (username_lower);

-- Wallets linked to users; an address belongs to at most one user.
CREATE TABLE user_wallets (
    address   TEXT PRIMARY KEY,        -- lower-case 0x hex
    user_id   TEXT NOT NULL,
    provider  TEXT NOT NULL,           -- Metamask | Coinbase | Other
    linked_at BIGINT NOT NULL          -- Unix seconds
);
CREATE INDEX user_wallets_user ON user_wallets (user_id, linked_at);
