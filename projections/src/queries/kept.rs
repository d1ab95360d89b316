//! Answers kept while the read tables stay the same: what was computed from the tables of one
//! generation at one log position is the answer for as long as both stay (a fold moves the
//! position, a replay publishes a new generation).

use domain::Position;

/// `value`, computed from the read tables of `generation` at `position`.
pub(crate) struct Kept<T> {
    generation: String,
    position: Position,
    value: T,
}

impl<T> Kept<T> {
    pub(crate) fn new(generation: String, position: Position, value: T) -> Self {
        Self { generation, position, value }
    }

    /// The value, if it was computed from the tables of `generation` at `position`.
    pub(crate) fn at(&self, generation: &str, position: Position) -> Option<&T> {
        (self.generation == generation && self.position == position).then_some(&self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_value_holds_at_its_own_generation_and_position_only() {
        let kept = Kept::new("g1".into(), 10, "answer");
        assert_eq!(kept.at("g1", 10), Some(&"answer"));
        assert_eq!(kept.at("g1", 11), None, "a later fold");
        assert_eq!(kept.at("g2", 10), None, "a replayed generation");
    }
}
