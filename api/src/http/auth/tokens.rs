//! Access tokens: JWT HS256 with `sub` = user id, `iat`, and `exp` = one day later (the UI's
//! cookie lifetime).

use chrono::Utc;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// How long an access token is valid.
pub const TOKEN_TTL: chrono::Duration = chrono::Duration::days(1);

/// The claims of an access token.
#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id.
    pub sub: String,
    /// Issued at (Unix seconds).
    pub iat: i64,
    /// Expires at (Unix seconds).
    pub exp: i64,
}

/// Why a token was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum TokenError {
    /// Well-formed and signed by us, but past `exp`: the UI logs out on 410.
    Expired,
    /// Anything else: malformed, wrong signature or algorithm, not a user id.
    Invalid,
}

/// Signs and checks access tokens with one key.
pub struct Tokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl Tokens {
    /// Tokens keyed by `key`.
    pub fn new(key: &[u8]) -> Self {
        Self { encoding: EncodingKey::from_secret(key), decoding: DecodingKey::from_secret(key) }
    }

    /// A token for `user_id`, valid for [`TOKEN_TTL`].
    pub fn issue(&self, user_id: Uuid) -> Result<String, jsonwebtoken::errors::Error> {
        let now = Utc::now();
        let claims = Claims { sub: user_id.to_string(), iat: now.timestamp(), exp: (now + TOKEN_TTL).timestamp() };
        self.sign(&claims)
    }

    /// Signs arbitrary claims (tests make expired tokens with it).
    pub fn sign(&self, claims: &Claims) -> Result<String, jsonwebtoken::errors::Error> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
    }

    /// The user id and issue time (Unix seconds) a token carries, if it is ours and current.
    pub fn verify(&self, token: &str) -> Result<(Uuid, i64), TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        match jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation) {
            Ok(data) => Ok((data.claims.sub.parse().map_err(|_| TokenError::Invalid)?, data.claims.iat)),
            Err(err) if matches!(err.kind(), ErrorKind::ExpiredSignature) => Err(TokenError::Expired),
            Err(_) => Err(TokenError::Invalid),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_the_user_and_expire() {
        let tokens = Tokens::new(b"key");
        let user = Uuid::from_u128(42);
        assert_eq!(tokens.verify(&tokens.issue(user).unwrap()).map(|(id, _)| id), Ok(user));
        let old = Claims { sub: user.to_string(), iat: 0, exp: Utc::now().timestamp() - 10 };
        assert_eq!(tokens.verify(&tokens.sign(&old).unwrap()), Err(TokenError::Expired));
        assert_eq!(Tokens::new(b"other").verify(&tokens.issue(user).unwrap()), Err(TokenError::Invalid));
        assert_eq!(tokens.verify("not.a.token"), Err(TokenError::Invalid));
    }
}
