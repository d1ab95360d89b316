//! Rarity within a collection by OpenRarity's method (information content, normalized by the
//! collection's entropy, ranked with shared ranks for equal scores).
//!
//! For a collection of `N` tokens, each trait (a property key) is a distribution over its
//! values, with a "null" value for the members that lack the trait, plus OpenRarity's trait
//! count meta-trait (how many traits a token has). A token's information content is the sum,
//! over every trait of the collection and the trait count, of `-log2(count / N)` for its value;
//! its score is that divided by the collection's entropy (the sum of `-p log2 p` over every
//! trait's values, nulls and trait counts included), or by 1 when the entropy is 0. Ranks
//! follow the score, highest first, and equal scores (within a relative 1e-9, as Python's
//! `math.isclose`) share a rank, the next rank skipping as many (1, 2, 2, 4: SQL's `RANK`).
//!
//! What differs from OpenRarity's reference code, and why (docs/read-models.md says the same):
//! trait names and values are compared as written (after trimming), not lower-cased, so the
//! facets and the ranks group the same values; a token with two values for one key counts its
//! first (OpenRarity's attributes are a map); every value is a string (OpenRarity leaves
//! numeric and date traits out of the score: properties here are text).

use std::collections::{BTreeMap, HashMap};

/// One token's traits, `(name, value)`, at most one value per name.
pub(crate) type Traits<'a> = &'a [(String, String)];

/// A token's rarity in its collection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rank {
    /// 1 is the rarest; equal scores share a rank.
    pub rank: u32,
    /// OpenRarity's score (information content over the collection's entropy).
    pub score: f64,
}

/// The first value of each trait name, in the order given.
pub(crate) fn first_per_name(traits: &[(String, String)]) -> Vec<(String, String)> {
    let mut seen: Vec<(String, String)> = Vec::with_capacity(traits.len());
    for (name, value) in traits {
        if !seen.iter().any(|(n, _)| n == name) {
            seen.push((name.clone(), value.clone()));
        }
    }
    seen
}

/// The ranks of `tokens` (each one's traits, at most one value per name), in their order.
pub(crate) fn rank<'a>(tokens: &[Traits<'a>]) -> Vec<Rank> {
    let n = tokens.len();
    if n == 0 {
        return Vec::new();
    }
    let total = n as f64;
    // Counts per (trait, value), per trait (tokens that have it) and per trait count. Sorted
    // maps: the sums below add in the same order on every run.
    let mut values: BTreeMap<&str, HashMap<&str, u32>> = BTreeMap::new();
    let mut trait_counts: BTreeMap<usize, u32> = BTreeMap::new();
    for traits in tokens {
        for (name, value) in traits.iter() {
            *values.entry(name).or_default().entry(value).or_default() += 1;
        }
        *trait_counts.entry(traits.len()).or_default() += 1;
    }
    let with_trait: BTreeMap<&str, u32> = values.iter().map(|(name, v)| (*name, v.values().sum())).collect();
    let surprise = |count: u32| -(f64::from(count) / total).log2();

    let mut entropy = 0.0;
    for (name, counts) in &values {
        let mut of_trait: Vec<u32> = counts.values().copied().collect();
        of_trait.sort_unstable();
        let nulls = n as u32 - with_trait[name];
        for count in of_trait.into_iter().chain((nulls > 0).then_some(nulls)) {
            entropy += f64::from(count) / total * surprise(count);
        }
    }
    for count in trait_counts.values() {
        entropy += f64::from(*count) / total * surprise(*count);
    }
    let normalizer = if entropy > 0.0 { entropy } else { 1.0 };

    let scores: Vec<f64> = tokens
        .iter()
        .map(|traits| {
            let mut information = 0.0;
            for (name, counts) in &values {
                let count = match traits.iter().find(|(n, _)| n == name) {
                    Some((_, value)) => counts[value.as_str()],
                    None => n as u32 - with_trait[name],
                };
                information += surprise(count);
            }
            information += surprise(trait_counts[&traits.len()]);
            information / normalizer
        })
        .collect();

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut ranks = vec![Rank { rank: 0, score: 0.0 }; n];
    let mut previous: Option<(f64, u32)> = None;
    for (i, &token) in order.iter().enumerate() {
        let score = scores[token];
        let rank = match previous {
            Some((before, rank)) if is_close(before, score) => rank,
            _ => i as u32 + 1,
        };
        ranks[token] = Rank { rank, score };
        previous = Some((score, rank));
    }
    ranks
}

/// Python's `math.isclose` with its defaults (relative 1e-9, absolute 0), as OpenRarity ties.
fn is_close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn traits(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    /// Five tokens, worked out by hand:
    ///
    /// | token | Hat    | Shirt | Eyes    | trait count |
    /// |-------|--------|-------|---------|-------------|
    /// | a     | cap    | blue  | (null)  | 2           |
    /// | b     | beanie | red   | (null)  | 2           |
    /// | c     | cap    | red   | (null)  | 2           |
    /// | d     | crown  | green | monocle | 3           |
    /// | e     | beanie | blue  | (null)  | 2           |
    ///
    /// Probabilities: Hat cap 2/5, beanie 2/5, crown 1/5; Shirt blue 2/5, red 2/5, green 1/5;
    /// Eyes monocle 1/5, null 4/5; trait count 2: 4/5, 3: 1/5.
    /// With `a = -log2(2/5) = 1.321928`, `u = -log2(1/5) = 2.321928`, `m = -log2(4/5) = 0.321928`:
    /// entropy H = 2 (Hat, Shirt) × (2 × 0.4a + 0.2u) + 2 (Eyes, count) × (0.2u + 0.8m)
    ///           = 2 × 1.521928 + 2 × 0.721928 = 4.487712.
    /// Information: d = u + u + u + u = 9.287712; a, b, c, e = a + a + m + m = 3.287712.
    /// Scores: d = 9.287712 / 4.487712 = 2.069587; the others 3.287712 / 4.487712 = 0.732603.
    /// Ranks: d 1; a, b, c, e share 2.
    #[test]
    fn a_small_collection_ranks_as_worked_out_by_hand() {
        let tokens = [
            traits(&[("Hat", "cap"), ("Shirt", "blue")]),
            traits(&[("Hat", "beanie"), ("Shirt", "red")]),
            traits(&[("Shirt", "red"), ("Hat", "cap")]),
            traits(&[("Hat", "crown"), ("Shirt", "green"), ("Eyes", "monocle")]),
            traits(&[("Hat", "beanie"), ("Shirt", "blue")]),
        ];
        let borrowed: Vec<Traits<'_>> = tokens.iter().map(Vec::as_slice).collect();
        let ranks = rank(&borrowed);
        let expected = [(2, 0.732603), (2, 0.732603), (2, 0.732603), (1, 2.069587), (2, 0.732603)];
        for (got, (rank, score)) in ranks.iter().zip(expected) {
            assert_eq!(got.rank, rank, "{ranks:?}");
            assert!((got.score - score).abs() < 1e-6, "{} vs {score}", got.score);
        }
    }

    /// Four tokens, one trait "Colour": red, red, blue, and one without it.
    /// p(red) = 1/2, p(blue) = 1/4, p(null) = 1/4; trait count 1: 3/4, 0: 1/4.
    /// H = (0.5 × 1 + 0.25 × 2 + 0.25 × 2) + (0.75 × 0.415037 + 0.25 × 2) = 1.5 + 0.811278 = 2.311278.
    /// Information: red 1 + 0.415037 = 1.415037; blue 2 + 0.415037 = 2.415037;
    /// none 2 + 2 = 4. Ranks: none 1, blue 2, the two reds 3 (and no 4).
    #[test]
    fn a_missing_trait_counts_as_a_null_value_and_ties_share_a_rank() {
        let tokens = [traits(&[("Colour", "red")]), traits(&[("Colour", "red")]), traits(&[("Colour", "blue")]), traits(&[])];
        let borrowed: Vec<Traits<'_>> = tokens.iter().map(Vec::as_slice).collect();
        let ranks = rank(&borrowed);
        assert_eq!(ranks.iter().map(|r| r.rank).collect::<Vec<_>>(), [3, 3, 2, 1]);
        let h = 2.311278;
        for (got, information) in ranks.iter().zip([1.415037, 1.415037, 2.415037, 4.0]) {
            assert!((got.score - information / h).abs() < 1e-6, "{} vs {}", got.score, information / h);
        }
    }

    #[test]
    fn one_token_or_identical_tokens_share_the_first_rank_with_a_zero_score() {
        let same = [traits(&[("Hat", "cap")]), traits(&[("Hat", "cap")])];
        let borrowed: Vec<Traits<'_>> = same.iter().map(Vec::as_slice).collect();
        assert_eq!(rank(&borrowed), vec![Rank { rank: 1, score: 0.0 }; 2]);
        assert!(rank(&[]).is_empty());
    }

    #[test]
    fn a_second_value_of_a_name_is_left_out() {
        assert_eq!(first_per_name(&traits(&[("Tag", "a"), ("Hat", "cap"), ("Tag", "b")])), traits(&[("Tag", "a"), ("Hat", "cap")]));
    }
}
