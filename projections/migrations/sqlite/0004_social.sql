-- Likes and bookmarks, folded from the `social-{userId}` streams. A row is a like (or bookmark)
-- that stands now; `nfts.total_likes` is kept equal to the number of `likes` rows of the token
-- (also when a reorg refolds its stream: the likes stay, as off-chain facts).
CREATE TABLE likes (
    user_id TEXT NOT NULL,
    nft_id  TEXT NOT NULL,
    at      BIGINT NOT NULL,            -- Unix seconds
    PRIMARY KEY (user_id, nft_id)
);
CREATE INDEX likes_nft ON likes (nft_id);

CREATE TABLE bookmarks (
    user_id TEXT NOT NULL,
    nft_id  TEXT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (user_id, nft_id)
);

-- LIKED and UNLIKED rows of an NFT's history (beside the chain's `nft_history`, whose rows a
-- reorg refold deletes and rebuilds from the token's stream: these are not in that stream).
CREATE TABLE like_history (
    position      INTEGER PRIMARY KEY,
    nft_id        TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    type_of_event TEXT NOT NULL,        -- LIKED | UNLIKED
    at            BIGINT NOT NULL
);
CREATE INDEX like_history_nft ON like_history (nft_id, position);
