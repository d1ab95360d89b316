//! Rarity within a collection by OpenRarity's method (information content, normalized by the
//! collection's entropy, ranked with shared ranks for equal scores).
//!
//! For a collection of `N` tokens, each trait (a property key) is a distribution over its
//! values, with a "null" value for the members that lack the trait, plus OpenRarity's trait
//! count meta-trait (how many traits a token has). A token's information content is the sum,
//! over every trait of the collection and the trait count, of `-log2(count / N)` for its value;
//! its score is that divided by the collection's entropy (the sum of `-p log2 p` over every
//! trait's values, nulls and trait counts included), or by 1 when the entropy is 0. A token's
//! trait count leaves out values "none" and "" (any case), as OpenRarity's does.
//!
//! Ranks follow OpenRarity's ranker (0.7.5, `RarityRanker.set_rarity_ranks`): tokens are sorted
//! by their number of unique traits (values no other member has, the trait count included, as
//! OpenRarity's `meta_trait:trait_count` attribute), most first, then by score,
//! highest first (a stable sort: the members' order breaks exact ties); walking that order, a
//! token whose score is close to the previous one's (within a relative 1e-9, Python's
//! `math.isclose`) shares its rank, any other takes its place in the order (1, 2, 2, 4: SQL's
//! `RANK`). So a token with a unique trait outranks any token without one, whatever the scores.
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
        *trait_counts.entry(trait_count(traits)).or_default() += 1;
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
            information += surprise(trait_counts[&trait_count(traits)]);
            information / normalizer
        })
        .collect();

    // How many of each token's values no other member has, its trait count among them (OpenRarity
    // adds the count to every token as the attribute `meta_trait:trait_count`).
    let unique: Vec<usize> = tokens
        .iter()
        .map(|traits| {
            let values_alone = traits.iter().filter(|(name, value)| values[name.as_str()][value.as_str()] == 1).count();
            values_alone + usize::from(trait_counts[&trait_count(traits)] == 1)
        })
        .collect();
    ranked(&scores, &unique).into_iter().zip(scores).map(|(rank, score)| Rank { rank, score }).collect()
}

/// The ranks of tokens with these scores and numbers of unique traits, as OpenRarity's
/// `set_rarity_ranks`: sorted by unique traits, then score, both descending (ties keep the
/// tokens' order); a score close to the previous one in that order shares its rank.
fn ranked(scores: &[f64], unique: &[usize]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| unique[b].cmp(&unique[a]).then(scores[b].total_cmp(&scores[a])).then(a.cmp(&b)));
    let mut ranks = vec![0; scores.len()];
    let mut previous: Option<(f64, u32)> = None;
    for (i, &token) in order.iter().enumerate() {
        let score = scores[token];
        let rank = match previous {
            Some((before, rank)) if is_close(before, score) => rank,
            _ => i as u32 + 1,
        };
        ranks[token] = rank;
        previous = Some((score, rank));
    }
    ranks
}

/// A token's number of traits, as OpenRarity's `Token.trait_count` counts them: a value
/// "none" or empty (any case) is no trait.
fn trait_count(traits: Traits<'_>) -> usize {
    traits.iter().filter(|(_, value)| !(value.trim().is_empty() || value.trim().eq_ignore_ascii_case("none"))).count()
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
    /// none 2 + 2 = 4. Blue and the one without each have one unique trait (its value; its
    /// trait count), so score orders them: none 1, blue 2, the two reds 3 (and no 4).
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

    /// Six tokens: token 0 alone wears the crown, tokens 1 and 2 share rare shirts, eyes and
    /// mouths (2 of 6 each). By score alone 1 and 2 come first (information 0.263 + 3 × 1.585 =
    /// 5.018 against 2.585 + 3 × 0.585 = 4.34); OpenRarity ranks the token with a unique value
    /// first: 0 is 1, 1 and 2 share 2, the three plain ones share 4.
    #[test]
    fn a_token_with_a_unique_value_outranks_higher_scores_without_one() {
        let plain = traits(&[("Hat", "cap"), ("Shirt", "a"), ("Eyes", "x"), ("Mouth", "w")]);
        let rare = traits(&[("Hat", "cap"), ("Shirt", "b"), ("Eyes", "y"), ("Mouth", "z")]);
        let crowned = traits(&[("Hat", "crown"), ("Shirt", "a"), ("Eyes", "x"), ("Mouth", "w")]);
        let tokens = [crowned, rare.clone(), rare, plain.clone(), plain.clone(), plain];
        let borrowed: Vec<Traits<'_>> = tokens.iter().map(Vec::as_slice).collect();
        let ranks = rank(&borrowed);
        assert!(ranks[1].score > ranks[0].score, "{ranks:?}");
        assert_eq!(ranks.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 2, 2, 4, 4, 4]);
    }

    #[test]
    fn one_token_or_identical_tokens_share_the_first_rank_with_a_zero_score() {
        let same = [traits(&[("Hat", "cap")]), traits(&[("Hat", "cap")])];
        let borrowed: Vec<Traits<'_>> = same.iter().map(Vec::as_slice).collect();
        assert_eq!(rank(&borrowed), vec![Rank { rank: 1, score: 0.0 }; 2]);
        assert!(rank(&[]).is_empty());
    }

    /// OpenRarity's own ranker tests (0.7.5, tests/test_rarity_ranker.py), reproduced.
    #[test]
    fn ranks_follow_openrarity_unique_traits_first_then_score() {
        // `test_set_ranks_same_unique_different_ic_score`: scores 1.5, 1.5, 0.2, 7.0 with 1, 2, 3
        // and 0 unique traits rank 2, 2, 1, 4 (by score alone: 2, 2, 4, 1).
        assert_eq!(ranked(&[1.5, 1.5, 0.2, 7.0], &[1, 2, 3, 0]), [2, 2, 1, 4]);
        // `test_rarity_ranker_same_scores`, with the reference's scores.
        let tokens = [
            traits(&[("trait1", "value1"), ("trait2", "value1"), ("trait3", "value1")]),
            traits(&[("trait1", "value1"), ("trait2", "value1"), ("trait3", "value1")]),
            traits(&[("trait1", "value2"), ("trait2", "value1"), ("trait3", "value3")]),
            traits(&[("trait1", "value2"), ("trait2", "value2"), ("trait3", "value3")]),
            traits(&[("trait1", "value3"), ("trait2", "value3"), ("trait3", "value3")]),
        ];
        let borrowed: Vec<Traits<'_>> = tokens.iter().map(Vec::as_slice).collect();
        let ranks = rank(&borrowed);
        let expected =
            [(3, 0.8749925360622679), (3, 0.8749925360622679), (5, 0.7235980365241422), (2, 1.1338031424711967), (1, 1.3926137488801251)];
        for (got, (rank, score)) in ranks.iter().zip(expected) {
            assert_eq!(got.rank, rank, "{ranks:?}");
            assert!((got.score - score).abs() < 1e-15, "{} vs {score}", got.score);
        }
        // `test_rarity_ranker_equal_score_and_unique_trait`: token 3 (two unique values) first,
        // tokens 0 and 2 (one each, equal scores) share 2, token 1 (none) is 4th.
        let tokens = [
            traits(&[("trait1", "value1"), ("trait2", "value1"), ("trait3", "value2")]),
            traits(&[("trait1", "value1"), ("trait2", "value2"), ("trait3", "value2")]),
            traits(&[("trait1", "value1"), ("trait2", "value2"), ("trait3", "value3")]),
            traits(&[("trait1", "value1"), ("trait2", "value2"), ("trait3", "value2"), ("trait4", "value1")]),
        ];
        let borrowed: Vec<Traits<'_>> = tokens.iter().map(Vec::as_slice).collect();
        assert_eq!(rank(&borrowed).iter().map(|r| r.rank).collect::<Vec<_>>(), [2, 4, 2, 1]);
    }

    /// A value "None" (or empty) is a value of its trait but no trait in the trait count:
    /// a token whose only trait is "None" counts zero traits, like one without any.
    #[test]
    fn none_and_empty_values_are_left_out_of_the_trait_count() {
        let tokens =
            [traits(&[("Hat", "cap")]), traits(&[("Hat", "cap")]), traits(&[("Hat", "None")]), traits(&[("Hat", "")]), traits(&[])];
        let borrowed: Vec<Traits<'_>> = tokens.iter().map(Vec::as_slice).collect();
        let ranks = rank(&borrowed);
        // Trait counts: 1, 1, 0, 0, 0 (p 2/5 and 3/5). Hat: cap 2/5, None 1/5, "" 1/5, null 1/5.
        let surprise = |p: f64| -p.log2();
        let h = 0.4 * surprise(0.4) + 3.0 * 0.2 * surprise(0.2) + 0.4 * surprise(0.4) + 0.6 * surprise(0.6);
        let none = (surprise(0.2) + surprise(0.6)) / h;
        assert!((ranks[2].score - none).abs() < 1e-12, "{} vs {none}", ranks[2].score);
        assert_eq!(ranks[2].score, ranks[3].score);
        assert_eq!(ranks[2].score, ranks[4].score);
    }

    #[test]
    fn a_second_value_of_a_name_is_left_out() {
        assert_eq!(first_per_name(&traits(&[("Tag", "a"), ("Hat", "cap"), ("Tag", "b")])), traits(&[("Tag", "a"), ("Hat", "cap")]));
    }
}
