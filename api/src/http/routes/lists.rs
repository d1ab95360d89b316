//! The parameters the lists share, declared once: which page and how many, the sort and its
//! order, the words searched, the form of sale, and the trait filters (`trait=Name:Value`,
//! repeated: several values of one trait match any of them, several traits must all match; the
//! name ends at the first `:` not escaped, a `:` or `\` in a name written `\:` or `\\`).
//! Each route adds its own (a category, a user) beside them.

use projections::queries::{
    Page,
    nft::{SaleFilter, SortBy, TraitFilter},
};
use utoipa::openapi::{
    Required, Type,
    path::{Parameter, ParameterBuilder, ParameterIn},
    schema::{ArrayBuilder, ObjectBuilder},
};

use super::{
    limits::MAX_QUERY_TEXT,
    params::{Choice, Number, Params, Text},
};
use crate::http::error::ApiError;

/// Page size of browse and profile lists.
pub const PAGE_SIZE: u32 = 9;
/// The largest page a client may ask for.
const MAX_LIMIT: u32 = 100;

/// Which page, from 1.
pub const PAGE: Number = Number { name: "page", default: 1, min: 1, max: 1_000_000, description: "Page number, from 1" };

/// How many items a page holds, `default` unless asked.
pub const fn limit(default: u32) -> Number {
    Number { name: "limit", default, min: 1, max: MAX_LIMIT, description: "Items per page" }
}

/// Which sales a list shows (fixed price by default).
pub const FORM_OF_SALE: Choice<SaleFilter> = Choice {
    name: "formOfSale",
    default: "FIXEDPRICE",
    values: &["ALL", "FIXEDPRICE", "AUCTION", "NOT_FOR_SALE"],
    allowed: "ALL, FIXEDPRICE, AUCTION, NOT_FOR_SALE",
    parse: SaleFilter::parse,
    description: "Sale type to list",
};

/// What a list is sorted by.
pub const SORT_BY: Choice<SortBy> = Choice {
    name: "sortBy",
    default: "DATE",
    values: &["DATE", "PRICE", "POPULARITY"],
    allowed: "DATE, PRICE, POPULARITY",
    parse: SortBy::parse,
    description: "Sort key: mint time, price, or likes, bids and sales",
};

/// `true` for ascending.
pub const ORDER_BY: Choice<bool> = Choice {
    name: "orderBy",
    default: "0",
    values: &["0", "1"],
    allowed: "0 (newest / highest first), 1 (oldest / lowest first)",
    parse: |v| match v {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    },
    description: "0: newest / highest first; 1: oldest / lowest first",
};

/// Only what the market's admins verified.
pub const VERIFIED_ONLY: Choice<bool> = Choice {
    name: "verifiedOnly",
    default: "false",
    values: &["false", "true"],
    allowed: "false, true",
    parse: |v| match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    },
    description: "true: only what admins verified (collections; for NFTs, those of verified creators)",
};

/// Words to look for.
pub const SEARCH: Text = Text { name: "search", description: "Words to look for in titles and descriptions" };

/// The page and limit a query asks for.
pub fn page(params: &Params, default_limit: u32) -> Result<Page, ApiError> {
    Ok(Page { page: params.number(&PAGE)?, limit: params.number(&limit(default_limit))? })
}

/// The most `trait` parameters a request may give.
pub const MAX_TRAIT_FILTERS: usize = 16;

/// The `trait` parameter (repeated).
pub struct TraitParam;

/// The filter parameter.
pub const TRAIT: TraitParam = TraitParam;

impl TraitParam {
    /// Its OpenAPI description: an array, one `Name:Value` per item, exploded (`trait=a:1&trait=b:2`).
    pub fn doc(&self) -> Parameter {
        let item = ObjectBuilder::new().schema_type(Type::String).max_length(Some(MAX_QUERY_TEXT)).pattern(Some("^.+:.+$"));
        let schema = ArrayBuilder::new().items(item).max_items(Some(MAX_TRAIT_FILTERS));
        ParameterBuilder::new()
            .name("trait")
            .parameter_in(ParameterIn::Query)
            .required(Required::False)
            .description(Some(
                "A property to match, `Name:Value`, repeated (`trait=Background:Blue&trait=Background:Red&trait=Eyes:Laser`): \
                 any of the values of one trait, all the traits. A `:` or `\\` in the name is written `\\:` or `\\\\`; the \
                 value is everything after the first unescaped `:`. At most 16, each at most 200 characters.",
            ))
            .schema(Some(schema))
            .explode(Some(true))
            .build()
    }
}

/// The trait filters a query gives (grouped by name), or a 400 naming the bad one.
pub fn trait_filters(params: &Params) -> Result<Vec<TraitFilter>, ApiError> {
    let given: Vec<&str> = params.all("trait").collect();
    if given.len() > MAX_TRAIT_FILTERS {
        return Err(ApiError::BadRequest(format!("trait: at most {MAX_TRAIT_FILTERS} filters")));
    }
    let mut filters: Vec<TraitFilter> = Vec::new();
    for raw in given {
        let (name, value) = parse(raw).ok_or_else(|| {
            ApiError::BadRequest(format!("trait must be Name:Value (a `:` or `\\` in the name escaped with `\\`), not {raw:?}"))
        })?;
        match filters.iter_mut().find(|f| f.name == name) {
            Some(filter) if !filter.values.contains(&value) => filter.values.push(value),
            Some(_) => {}
            None => filters.push(TraitFilter { name, values: vec![value] }),
        }
    }
    Ok(filters)
}

/// `Name:Value` with the name's escapes undone; both trimmed, neither empty.
fn parse(raw: &str) -> Option<(String, String)> {
    let mut name = String::new();
    let mut chars = raw.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some((_, escaped @ (':' | '\\'))) => name.push(escaped),
                _ => return None,
            },
            ':' => {
                let (name, value) = (name.trim(), raw[at + 1..].trim());
                return (!name.is_empty() && !value.is_empty()).then(|| (name.to_owned(), value.to_owned()));
            }
            c => name.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn a_trait_is_a_name_and_a_value_split_at_the_first_unescaped_colon() {
        let pair = |n: &str, v: &str| Some((n.to_owned(), v.to_owned()));
        assert_eq!(parse("Background:Blue"), pair("Background", "Blue"));
        assert_eq!(parse(" Time : 12:30 "), pair("Time", "12:30"));
        assert_eq!(parse(r"a\:b:c"), pair("a:b", "c"));
        assert_eq!(parse(r"a\\:b"), pair(r"a\", "b"));
        for bad in ["Blue", ":Blue", "Background:", " : ", r"a\b:c", r"a\", ""] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
