//! A stable merge sort whose comparison may fail, as JSONata's order-by and `$sort` need:
//! their comparisons evaluate expressions and call functions, and an error must stop the sort
//! where jsonata-js would stop it.

use crate::error::Result;

/// Sorts `items` stably; `after(a, b)` says whether `a` belongs after `b`. Merges bottom-up, so
/// the depth of the stack never depends on the input.
pub(crate) fn merge_sort<T: Clone>(items: Vec<T>, after: &mut dyn FnMut(&T, &T) -> Result<bool>) -> Result<Vec<T>> {
    let n = items.len();
    if n <= 1 {
        return Ok(items);
    }
    let mut source = items;
    let mut target: Vec<T> = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        target.clear();
        let mut start = 0;
        while start < n {
            let middle = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, middle);
            while i < middle && j < end {
                if after(&source[i], &source[j])? {
                    target.push(source[j].clone());
                    j += 1;
                } else {
                    target.push(source[i].clone());
                    i += 1;
                }
            }
            target.extend_from_slice(&source[i..middle]);
            target.extend_from_slice(&source[j..end]);
            start = end;
        }
        std::mem::swap(&mut source, &mut target);
        width *= 2;
    }
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::merge_sort;

    #[test]
    fn sorts_stably_and_stops_on_error() {
        let items: Vec<(u32, char)> = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        let sorted = merge_sort(items, &mut |a, b| Ok(a.0 > b.0)).unwrap();
        assert_eq!(sorted, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let failed = merge_sort(vec![2, 1], &mut |_, _| Err(crate::error::Error::new("T2008")));
        assert_eq!(failed.unwrap_err().code, "T2008");
    }
}
