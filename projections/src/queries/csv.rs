//! CSV cells of text people wrote, for the exports (`marketplace export`, the public record).

use std::borrow::Cow;

/// Text a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) with a `'` before it, as OWASP advises; other text as it is.
pub fn inert(text: &str) -> Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}").into() } else { text.into() }
}

/// A CSV field, quoted when it must be.
pub fn field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) { format!("\"{}\"", value.replace('"', "\"\"")) } else { value.to_owned() }
}

/// A cell of text people wrote: neutralised, then quoted when it must be.
pub fn cell(text: &str) -> String {
    field(&inert(text))
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn cells_a_spreadsheet_would_run_are_neutralised_and_quoted() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("-1"), "'-1");
        assert_eq!(cell("@SUM"), "'@SUM");
        assert_eq!(cell("a, b"), "\"a, b\"");
        assert_eq!(cell("plain"), "plain");
    }
}
