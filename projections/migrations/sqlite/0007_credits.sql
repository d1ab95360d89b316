-- Credits: payouts the contract could not push (a receiver that reverts or burns the gas),
-- owed until withdrawn. One row per `Credited` or `CreditsWithdrawn` fact, keyed by its log
-- position; what an account is owed is its credits minus its withdrawals (summed exactly, as
-- wei can exceed 64 bits: `marketplace reconcile` compares the sum with `creditsOf`).
CREATE TABLE credit_movements (
    position BIGINT PRIMARY KEY,
    chain_id BIGINT NOT NULL,
    account  TEXT NOT NULL,          -- lower-case 0x hex
    kind     TEXT NOT NULL,          -- CREDITED | WITHDRAWN
    amount   TEXT NOT NULL,          -- wei
    tx_hash  TEXT NOT NULL,
    at       BIGINT NOT NULL         -- block time, Unix seconds
);
CREATE INDEX credit_movements_account ON credit_movements (chain_id, account, position);
