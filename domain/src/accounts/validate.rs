//! Field rules shared by every command: what a valid e-mail, username, password and name are.
//! Each returns the normalised value or an [`AccountError::Invalid`] naming the field.

use super::AccountError;

/// Longest e-mail address (RFC 5321 path limit).
pub const MAX_EMAIL: usize = 254;
/// Username length bounds.
pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 3..=30;
/// Password length bounds (argon2 takes any length; the cap keeps requests small).
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;
/// Longest full name.
pub const MAX_FULL_NAME: usize = 100;
/// Longest bio.
pub const MAX_BIO: usize = 1_000;
/// Longest mobile number as typed.
pub const MAX_MOBILE: usize = 20;

/// A required text field: trimmed, non-empty, at most `max` characters.
pub fn required(field: &str, value: &str, max: usize) -> Result<String, AccountError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AccountError::invalid(format!("{field}: Required")));
    }
    if value.chars().count() > max {
        return Err(AccountError::invalid(format!("{field}: at most {max} characters")));
    }
    Ok(value.to_owned())
}

/// A valid e-mail, trimmed and lower-cased: `local@domain.tld`, no spaces, one `@`.
pub fn email(field: &str, value: &str) -> Result<String, AccountError> {
    let value = value.trim().to_lowercase();
    if value.is_empty() {
        return Err(AccountError::invalid(format!("{field}: Required")));
    }
    let invalid = || AccountError::invalid(format!("{field}: Enter a valid email"));
    if value.len() > MAX_EMAIL || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid());
    }
    let (local, domain) = value.split_once('@').ok_or_else(invalid)?;
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
        && domain.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '-')
        && labels.last().is_some_and(|tld| tld.chars().count() >= 2);
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && !local.contains(['@', '"', '(', ')', ',', ':', ';', '<', '>', '[', '\\', ']']);
    if local_ok && domain_ok { Ok(value) } else { Err(invalid()) }
}

/// A username: 3 to 30 letters, digits, `_`, `.` or `-`; case is kept, uniqueness ignores it.
pub fn username(value: &str) -> Result<String, AccountError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AccountError::invalid("username: Required"));
    }
    let len = value.chars().count();
    if !USERNAME_LEN.contains(&len) || !value.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')) {
        return Err(AccountError::invalid("username: 3 to 30 characters, only letters, digits, '_', '.' and '-'"));
    }
    // The read models name an erased account `deleted-…`: no one may take such a name.
    if value.to_ascii_lowercase().starts_with(DELETED_PREFIX) {
        return Err(AccountError::invalid("username: names starting with 'deleted-' are reserved"));
    }
    Ok(value.to_owned())
}

/// How the read models name an erased account (`deleted-` and 22 characters of its id).
pub const DELETED_PREFIX: &str = "deleted-";

/// A new password: 8 to 128 characters, equal to its confirmation.
pub fn new_password(field: &str, password: &str, confirmation: &str, mismatch: &str) -> Result<(), AccountError> {
    if password.is_empty() {
        return Err(AccountError::invalid(format!("{field}: Required")));
    }
    let len = password.chars().count();
    if !PASSWORD_LEN.contains(&len) {
        return Err(AccountError::invalid(format!("{field}: between {} and {} characters", PASSWORD_LEN.start(), PASSWORD_LEN.end())));
    }
    if password != confirmation {
        return Err(AccountError::invalid(mismatch));
    }
    Ok(())
}

/// A mobile number: digits with optional `+`, spaces, `-`, `(` and `)`; empty allowed.
pub fn mobile(value: &str) -> Result<String, AccountError> {
    let value = value.trim();
    let digits = value.chars().filter(char::is_ascii_digit).count();
    let ok = value.chars().all(|c| c.is_ascii_digit() || matches!(c, '+' | ' ' | '-' | '(' | ')'))
        && value.chars().count() <= MAX_MOBILE
        && (value.is_empty() || digits >= 3);
    if ok { Ok(value.to_owned()) } else { Err(AccountError::invalid("mobileNumber: Enter a valid phone number")) }
}

/// A 6-digit verification code as typed (surrounding spaces ignored).
pub fn code(value: &str) -> Result<String, AccountError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AccountError::invalid("verificationCode: Required"));
    }
    if !value.chars().all(|c| c.is_ascii_digit()) {
        return Err(AccountError::invalid("verificationCode: Verification code must be a number"));
    }
    Ok(value.to_owned())
}

/// An EVM address: `0x` and 40 hex digits; returned lower-case.
pub fn wallet_address(value: &str) -> Result<String, AccountError> {
    let value = value.trim();
    let hex = value.strip_prefix("0x").or_else(|| value.strip_prefix("0X"));
    match hex {
        Some(h) if h.len() == 40 && h.chars().all(|c| c.is_ascii_hexdigit()) => Ok(format!("0x{}", h.to_lowercase())),
        _ => Err(AccountError::invalid("walletAddress: not a valid 0x address")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(email("email", "  Alice@Example.COM ").unwrap(), "alice@example.com");
        for bad in [
            "",
            "alice",
            "alice@",
            "@example.com",
            "a b@example.com",
            "alice@example",
            "alice@@example.com",
            "a..b@example.com",
            "alice@-x.com",
        ] {
            assert!(email("email", bad).is_err(), "{bad:?} should be rejected");
        }
        assert_eq!(email("email", "").unwrap_err(), AccountError::invalid("email: Required"));
        assert_eq!(email("email", "x").unwrap_err(), AccountError::invalid("email: Enter a valid email"));
    }

    #[test]
    fn usernames_keep_case_and_allow_few_symbols() {
        assert_eq!(username(" Alice_01 ").unwrap(), "Alice_01");
        for bad in ["", "ab", "has space", "émile", "a/b", &"x".repeat(31)] {
            assert!(username(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn passwords_need_length_and_a_matching_confirmation() {
        assert!(new_password("password", "correct horse", "correct horse", "Password doesn't match").is_ok());
        assert_eq!(
            new_password("password", "correct horse", "correct house", "Password doesn't match").unwrap_err(),
            AccountError::invalid("Password doesn't match")
        );
        assert!(new_password("password", "short", "short", "x").is_err());
        assert_eq!(new_password("password", "", "", "x").unwrap_err(), AccountError::invalid("password: Required"));
    }

    #[test]
    fn codes_mobiles_and_addresses() {
        assert_eq!(code(" 012345 ").unwrap(), "012345");
        assert_eq!(code("12a").unwrap_err(), AccountError::invalid("verificationCode: Verification code must be a number"));
        assert_eq!(mobile("+49 (30) 123-456").unwrap(), "+49 (30) 123-456");
        assert!(mobile("call me").is_err());
        assert_eq!(mobile("").unwrap(), "");
        assert_eq!(wallet_address("0xAbCdEf0123456789abcdef0123456789ABCDEF01").unwrap(), "0xabcdef0123456789abcdef0123456789abcdef01");
        assert!(wallet_address("0x123").is_err());
    }
}
