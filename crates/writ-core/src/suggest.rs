//! Suggestions for misspelled names, for the "did you mean" part of an error message.

/// The candidate closest to `name` by edit distance, if one is close enough to be a likely
/// misspelling (at most two edits, and fewer than the name's length). Case is ignored.
///
/// # Example
///
/// ```
/// assert_eq!(writ_core::closest_name("setps", ["steps", "ms"]), Some("steps"));
/// assert_eq!(writ_core::closest_name("timeout", ["steps", "ms"]), None);
/// ```
pub fn closest_name<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lowered = name.to_lowercase();
    let max_distance = 2.min(lowered.chars().count().saturating_sub(1));
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(&lowered, &candidate.to_lowercase()), candidate))
        .filter(|(distance, _)| *distance <= max_distance)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (row, ch_a) in a.chars().enumerate() {
        let mut current = vec![row + 1; b.len() + 1];
        for (col, ch_b) in b.iter().enumerate() {
            let substitution = previous[col] + usize::from(ch_a != *ch_b);
            current[col + 1] = substitution.min(previous[col + 1] + 1).min(current[col] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_only_near_misses() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(closest_name("EQ", ["eq", "ne"]), Some("eq"));
        assert_eq!(closest_name("eqq", ["eq", "ne"]), Some("eq"));
        assert_eq!(closest_name("x", ["eq", "ne"]), None);
        assert_eq!(
            closest_name("maxStringLen", ["maxStringLength", "maxArrayLength"]),
            None
        );
        assert_eq!(
            closest_name("maxStringLenght", ["maxStringLength", "maxArrayLength"]),
            Some("maxStringLength")
        );
    }
}
