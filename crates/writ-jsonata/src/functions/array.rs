//! Array built-ins and the higher-order functions over arrays.
//!
//! Which results are sequences follows jsonata-js: `$map`, `$filter` (and `$distinct` of a
//! sequence) build sequences, which the evaluator flattens and unwraps; `$append`, `$reverse`,
//! `$sort`, `$shuffle` and `$zip` build plain arrays, which it leaves alone. Functions that
//! return their argument unchanged (one item or none) keep its flags.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use writ_core::Str;

use super::Builtin;
use crate::error::{Code, Error, Result};
use crate::eval::Cx;
use crate::value::{Val, boolean, equal_metered, vec_for};

pub(super) const TABLE: &[Builtin] = &[
    Builtin {
        name: "append",
        signature: "<xx:a>",
        imp: append,
    },
    Builtin {
        name: "reverse",
        signature: "<a:a>",
        imp: reverse,
    },
    Builtin {
        name: "shuffle",
        signature: "<a:a>",
        imp: shuffle,
    },
    Builtin {
        name: "distinct",
        signature: "<x:x>",
        imp: distinct,
    },
    Builtin {
        name: "sort",
        signature: "<af?:a>",
        imp: sort,
    },
    Builtin {
        name: "zip",
        signature: "<a+>",
        imp: zip,
    },
    Builtin {
        name: "map",
        signature: "<af>",
        imp: map,
    },
    Builtin {
        name: "filter",
        signature: "<af>",
        imp: filter,
    },
    Builtin {
        name: "single",
        signature: "<af?>",
        imp: single,
    },
    Builtin {
        name: "reduce",
        signature: "<afj?:j>",
        imp: reduce,
    },
];

/// Argument `idx`, with a missing one read as no value.
fn arg(args: &[Val], idx: usize) -> Val {
    args.get(idx).cloned().unwrap_or_default()
}

/// The argument as an array: the signature wraps a lone value in one, and a direct call is
/// given the same treatment.
fn as_list(value: Val) -> Val {
    if value.is_array() {
        value
    } else {
        Val::array(vec![value])
    }
}

/// How many items an array argument holds (zero for anything else).
fn len_of(value: &Val) -> usize {
    value.as_array().map_or(0, |items| items.len())
}

/// How many arguments `function` declares (one for a value that is not a function, which
/// `Cx::apply` then rejects).
fn arity(function: &Val) -> usize {
    function.as_function().map_or(1, |f| f.arity())
}

/// The arguments a higher-order built-in passes to its function: the value always, then the
/// position and the whole collection only when the function declares parameters for them.
pub(super) fn hof_args(function: &Val, value: Val, position: Val, whole: &Val) -> Vec<Val> {
    let declared = arity(function);
    let mut call_args = Vec::with_capacity(declared.clamp(1, 3));
    call_args.push(value);
    if declared >= 2 {
        call_args.push(position);
    }
    if declared >= 3 {
        call_args.push(whole.clone());
    }
    call_args
}

/// JavaScript's truthiness, which `$sort` applies to its comparator's answer and `$assert` to
/// its condition (not JSONata's: an empty array is true here).
pub(super) fn js_truthy(value: &Val) -> bool {
    match value {
        Val::Undefined | Val::Null => false,
        Val::Bool(b) => *b,
        Val::Number(n) => *n != 0.0 && !n.is_nan(),
        Val::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// `$append(a, b)`: one array of both (a lone value counts as a one-item array); either
/// argument alone when the other is missing.
fn append(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let (first, second) = (arg(args, 0), arg(args, 1));
    if first.is_undefined() {
        return Ok(second);
    }
    if second.is_undefined() {
        return Ok(first);
    }
    let size = first.as_array().map_or(1, |a| a.len()) + second.as_array().map_or(1, |a| a.len());
    cx.charge_array(size)?;
    cx.steps(size as u64)?;
    let mut items = vec_for(size)?;
    for part in [first, second] {
        match part.as_array() {
            Some(view) => items.extend(view.iter()),
            None => items.push(part),
        }
    }
    Ok(Val::array(items))
}

/// `$reverse(array)`: a new array in reverse order.
fn reverse(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    let Some(items) = list.as_array().filter(|items| items.len() > 1) else {
        return Ok(list);
    };
    cx.steps(items.len() as u64)?;
    cx.charge_array(items.len())?;
    Ok(Val::array(items.iter().rev().collect()))
}

/// The inside-out Fisher–Yates shuffle jsonata-js runs, drawing `random()` (in `[0, 1)`) once
/// per item, so that the same draws give the same order.
fn shuffle_with<T: Clone>(
    items: impl ExactSizeIterator<Item = T>,
    mut random: impl FnMut() -> Result<f64>,
) -> Result<Vec<T>> {
    let mut out: Vec<T> = Vec::with_capacity(items.len());
    for (i, item) in items.enumerate() {
        // A draw of 1 or more (which a host should never give) still lands in range.
        let j = ((random()? * (i + 1) as f64).floor() as usize).min(i);
        match out.get_mut(j) {
            Some(slot) if j != i => {
                let displaced = std::mem::replace(slot, item);
                out.push(displaced);
            }
            _ => out.push(item),
        }
    }
    Ok(out)
}

/// `$shuffle(array)`: the items in a random order drawn from the host.
fn shuffle(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    let Some(items) = list.as_array().filter(|items| items.len() > 1) else {
        return Ok(list);
    };
    cx.steps(items.len() as u64)?;
    cx.charge_array(items.len())?;
    // The host's source may be slow, and each move reaches a random place in a long list: a
    // step per draw keeps the clock read while the items move.
    let shuffled = shuffle_with(items.iter(), || {
        cx.step()?;
        Ok(cx.random())
    })?;
    Ok(Val::array(shuffled))
}

/// A scalar reduced to what deep equality compares, so that `$distinct` finds repeats of
/// scalars by hashing; `0` and `-0` are one key, as `===` makes them equal.
#[derive(PartialEq, Eq, Hash)]
enum ScalarKey {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number, by its bits after folding `-0` into `0`.
    Number(u64),
    /// A string.
    String(Str),
}

impl ScalarKey {
    /// The key of `value`, or `None` for arrays, objects and functions.
    fn of(value: &Val) -> Option<ScalarKey> {
        Some(match value {
            Val::Null => ScalarKey::Null,
            Val::Bool(b) => ScalarKey::Bool(*b),
            Val::Number(n) => ScalarKey::Number(if *n == 0.0 { 0 } else { n.to_bits() }),
            Val::String(s) => ScalarKey::String(s.clone()),
            _ => return None,
        })
    }
}

/// What `$distinct` hashes an array, object or function by: its kind, its length and its
/// top-level scalars (an object's entries summed, since their order does not matter to
/// equality). Equal values hash the same; nested containers count only by kind and length,
/// so the work is one step per top-level item and collisions fall to [`equal_metered`].
fn shallow_hash(value: &Val) -> u64 {
    /// The hash of one item: a scalar by its key, a container by its kind and length.
    fn item_hash(item: &Val) -> u64 {
        let mut hasher = DefaultHasher::new();
        match ScalarKey::of(item) {
            Some(key) => key.hash(&mut hasher),
            None => {
                item.type_name().hash(&mut hasher);
                item.as_array()
                    .map(|a| a.len())
                    .or_else(|| item.as_object().map(|o| o.len()))
                    .hash(&mut hasher);
            }
        }
        hasher.finish()
    }
    let mut hasher = DefaultHasher::new();
    if let Some(items) = value.as_array() {
        (0u8, items.len()).hash(&mut hasher);
        items.iter().for_each(|item| item_hash(&item).hash(&mut hasher));
    } else if let Some(object) = value.as_object() {
        let mut entries = 0u64;
        for (key, item) in object.entries() {
            let mut entry = DefaultHasher::new();
            (key, item_hash(&item)).hash(&mut entry);
            entries = entries.wrapping_add(entry.finish());
        }
        (1u8, object.len(), entries).hash(&mut hasher);
    } else {
        2u8.hash(&mut hasher);
    }
    hasher.finish()
}

/// The first of each group of deep-equal items, in order. Scalars are found by hashing; other
/// items by [`shallow_hash`], then compared with the kept items of the same hash.
fn distinct_items(items: impl Iterator<Item = Val>, charge: &mut impl FnMut(u64) -> Result<()>) -> Result<Vec<Val>> {
    let mut kept = Vec::new();
    let mut scalars = HashSet::new();
    let mut composites: HashMap<u64, Vec<Val>> = HashMap::new();
    for item in items {
        let fresh = match ScalarKey::of(&item) {
            Some(key) => {
                // A step per item keeps the clock read while the set grows.
                charge(1)?;
                scalars.insert(key)
            }
            None => {
                charge(
                    item.as_array()
                        .map(|a| a.len())
                        .or_else(|| item.as_object().map(|o| o.len()))
                        .unwrap_or(1) as u64,
                )?;
                let bucket = composites.entry(shallow_hash(&item)).or_default();
                let mut seen = false;
                for earlier in bucket.iter() {
                    if equal_metered(earlier, &item, charge)? {
                        seen = true;
                        break;
                    }
                }
                if !seen {
                    bucket.push(item.clone());
                }
                !seen
            }
        };
        if fresh {
            kept.push(item);
        }
    }
    Ok(kept)
}

/// `$distinct(array)`: the array without repeats (by deep equality), a sequence when the
/// argument was one; anything else is returned as it is.
fn distinct(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    let Some(items) = list.as_array().filter(|items| items.len() > 1) else {
        return Ok(list);
    };
    cx.steps(items.len() as u64)?;
    cx.charge_array(items.len())?;
    let kept = distinct_items(items.iter(), &mut |n| cx.steps(n))?;
    Ok(if list.is_sequence() {
        Val::sequence(kept)
    } else {
        Val::array(kept)
    })
}

/// Sorts `items` with jsonata-js's merge sort: split at `len / 2`, sort the left half, then
/// the right, then merge, taking the right item first exactly when `after(left, right)` says
/// so. Equal items keep their order, and a comparator that is not a consistent order still
/// sees the same calls in the same order as in jsonata-js. The recursion is `log2(len)` deep.
pub(crate) fn merge_sort_by<T: Default, E>(
    mut items: Vec<T>,
    after: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<Vec<T>, E> {
    let mut scratch: Vec<T> = std::iter::repeat_with(T::default).take(items.len()).collect();
    sort_run(&mut items, &mut scratch, after)?;
    Ok(items)
}

/// Sorts one run in place, with `scratch` (as long as `run`) to merge into.
fn sort_run<T: Default, E>(
    run: &mut [T],
    scratch: &mut [T],
    after: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    let len = run.len();
    if len <= 1 {
        return Ok(());
    }
    let middle = len / 2;
    {
        let (left, right) = run.split_at_mut(middle);
        let (left_scratch, right_scratch) = scratch.split_at_mut(middle);
        sort_run(left, left_scratch, after)?;
        sort_run(right, right_scratch, after)?;
    }
    let (left, right) = run.split_at_mut(middle);
    let (mut l, mut r) = (0, 0);
    for slot in scratch.iter_mut() {
        let take_right = match (left.get(l), right.get(r)) {
            (Some(a), Some(b)) => after(a, b)?,
            (None, _) => true,
            (_, None) => false,
        };
        let source = if take_right {
            r += 1;
            right.get_mut(r - 1)
        } else {
            l += 1;
            left.get_mut(l - 1)
        };
        if let Some(source) = source {
            *slot = std::mem::take(source);
        }
    }
    run.swap_with_slice(scratch);
    Ok(())
}

/// Sorts `items` as `$sort` does, asking `after(cx, a, b)` whether `a` belongs after `b`, in
/// jsonata-js's order of comparisons (which a comparator with side effects or errors, or one
/// that is not a consistent order, can observe).
fn sort_by(
    cx: &mut Cx<'_>,
    items: Vec<Val>,
    mut after: impl FnMut(&mut Cx<'_>, &Val, &Val) -> Result<bool>,
) -> Result<Vec<Val>> {
    merge_sort_by(items, &mut |a, b| after(cx, a, b))
}

/// The comparisons a merge sort of `len` items makes at most: `len * ceil(log2 len)`.
fn sort_cost(len: usize) -> u64 {
    let len = len as u64;
    len.saturating_mul(u64::from(len.next_power_of_two().trailing_zeros()))
}

/// `$sort(array, comparator?)`: a sorted copy. Without a comparator the items must be all
/// numbers or all strings (D3070), in ascending order; with one, `comparator(a, b)` being
/// truthy puts `a` after `b`.
fn sort(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    let Some(view) = list.as_array().filter(|items| items.len() > 1) else {
        return Ok(list);
    };
    cx.steps(view.len() as u64)?;
    cx.charge_array(view.len())?;
    let items = view.to_vec();
    let comparator = arg(args, 1);
    let sorted = if comparator.is_undefined() {
        if items.iter().all(|item| matches!(item, Val::Number(_))) {
            cx.steps(sort_cost(items.len()))?;
            sort_by(cx, items, |_, a, b| {
                Ok(matches!((a, b), (Val::Number(x), Val::Number(y)) if x > y))
            })?
        } else if items.iter().all(|item| matches!(item, Val::String(_))) {
            cx.steps(sort_cost(items.len()))?;
            sort_by(cx, items, |_, a, b| {
                Ok(matches!((a, b), (Val::String(x), Val::String(y)) if x > y))
            })?
        } else {
            return Err(Error::new(Code::D3070).at(cx.position));
        }
    } else {
        sort_by(cx, items, |cx, a, b| {
            Ok(js_truthy(&cx.apply(&comparator, &[a.clone(), b.clone()])?))
        })?
    };
    Ok(Val::array(sorted))
}

/// `$zip(array, …)`: arrays of the items at each position, as many as the shortest argument
/// has (none when an argument is not an array).
fn zip(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let len = args.iter().map(len_of).min().unwrap_or(0);
    cx.charge_array(len)?;
    cx.steps((len as u64).saturating_mul(args.len() as u64))?;
    let views: Vec<_> = args.iter().filter_map(Val::as_array).collect();
    let mut tuples = Vec::with_capacity(len);
    for i in 0..len {
        // Each tuple is a container of its own: its building reads the clock, and its drop
        // is reserved in time as a copy's is.
        cx.step()?;
        cx.charge_copied()?;
        cx.charge_array(views.len())?;
        tuples.push(Val::array(views.iter().filter_map(|view| view.get(i)).collect()));
    }
    Ok(Val::array(tuples))
}

/// `$map(array, function)`: the function's results that are values, as a sequence.
fn map(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    if list.is_undefined() {
        return Ok(Val::Undefined);
    }
    let (list, function) = (as_list(list), arg(args, 1));
    let len = len_of(&list);
    cx.steps(len as u64)?;
    cx.charge_array(len)?;
    let mut results = Vec::with_capacity(len);
    for (i, item) in list.as_array().into_iter().flat_map(|view| view.iter()).enumerate() {
        let result = cx.apply(&function, &hof_args(&function, item, Val::Number(i as f64), &list))?;
        if !result.is_undefined() {
            results.push(result);
        }
    }
    Ok(Val::sequence(results))
}

/// `$filter(array, predicate)`: the items for which the predicate is truthy, as a sequence.
fn filter(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    if list.is_undefined() {
        return Ok(Val::Undefined);
    }
    let (list, function) = (as_list(list), arg(args, 1));
    let len = len_of(&list);
    cx.steps(len as u64)?;
    cx.charge_array(len)?;
    let mut kept = Vec::new();
    for (i, item) in list.as_array().into_iter().flat_map(|view| view.iter()).enumerate() {
        let verdict = cx.apply(
            &function,
            &hof_args(&function, item.clone(), Val::Number(i as f64), &list),
        )?;
        if boolean(&verdict) == Some(true) {
            kept.push(item);
        }
    }
    Ok(Val::sequence(kept))
}

/// `$single(array, predicate?)`: the one item that matches (every item matches without a
/// predicate); D3138 at a second match, D3139 when none does.
fn single(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    if list.is_undefined() {
        return Ok(Val::Undefined);
    }
    let (list, function) = (as_list(list), arg(args, 1));
    cx.steps(len_of(&list) as u64)?;
    let mut found = None;
    for (i, item) in list.as_array().into_iter().flat_map(|view| view.iter()).enumerate() {
        let matches = function.is_undefined() || {
            let verdict = cx.apply(
                &function,
                &hof_args(&function, item.clone(), Val::Number(i as f64), &list),
            )?;
            boolean(&verdict) == Some(true)
        };
        if matches {
            if found.is_some() {
                return Err(Error::new(Code::D3138).at(cx.position));
            }
            found = Some(item);
        }
    }
    found.ok_or_else(|| Error::new(Code::D3139).at(cx.position))
}

/// `$reduce(array, function, init?)`: folds from the left, starting from `init` or, without
/// one, from the first item. The function must take at least two arguments (D3050); it gets
/// the position and the array too when it declares parameters for them.
fn reduce(cx: &mut Cx<'_>, args: &[Val]) -> Result<Val> {
    let list = arg(args, 0);
    if list.is_undefined() {
        return Ok(Val::Undefined);
    }
    let (list, function, init) = (as_list(list), arg(args, 1), arg(args, 2));
    let declared = arity(&function);
    if declared < 2 {
        return Err(Error::new(Code::D3050).at(cx.position));
    }
    let Some(view) = list.as_array() else {
        return Ok(init);
    };
    cx.steps(view.len() as u64)?;
    let (mut acc, start) = match view.get(0) {
        Some(first) if init.is_undefined() => (first, 1),
        _ => (init, 0),
    };
    for (i, item) in view.iter().enumerate().skip(start) {
        let mut call_args = vec![acc, item];
        if declared >= 3 {
            call_args.push(Val::Number(i as f64));
        }
        if declared >= 4 {
            call_args.push(list.clone());
        }
        acc = cx.apply(&function, &call_args)?;
    }
    Ok(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{eval, eval_with};
    use crate::value::deep_equal;

    /// Sorts numbers ascending with the comparator `$sort` uses by default, counting calls.
    fn sort_numbers(items: Vec<f64>) -> (Vec<f64>, usize) {
        let mut calls = 0;
        let sorted = merge_sort_by::<f64, ()>(items, &mut |a, b| {
            calls += 1;
            Ok(a > b)
        })
        .expect("no errors");
        (sorted, calls)
    }

    #[test]
    fn merge_sort_orders_and_is_stable() {
        assert_eq!(sort_numbers(vec![1.0, 3.0, 22.0, 11.0]).0, [1.0, 3.0, 11.0, 22.0]);
        assert_eq!(sort_numbers(vec![]).0, Vec::<f64>::new());
        assert_eq!(sort_numbers(vec![5.0]).0, [5.0]);
        let descending: Vec<f64> = (0..100).rev().map(f64::from).collect();
        let ascending: Vec<f64> = (0..100).map(f64::from).collect();
        assert_eq!(sort_numbers(descending).0, ascending);
        // Stability: sort pairs by their first element only.
        let pairs = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        let sorted = merge_sort_by::<(i32, char), ()>(pairs, &mut |a, b| Ok(a.0 > b.0)).expect("no errors");
        assert_eq!(sorted, [(0, 'e'), (1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
    }

    #[test]
    fn merge_sort_makes_the_comparisons_jsonata_makes() {
        // jsonata-js splits [3,1,2] into [3] and [1,2]: compare 1>2, then 3>1, 3>2.
        let mut seen = Vec::new();
        let sorted = merge_sort_by::<i32, ()>(vec![3, 1, 2], &mut |a, b| {
            seen.push((*a, *b));
            Ok(a > b)
        })
        .expect("no errors");
        assert_eq!(sorted, [1, 2, 3]);
        assert_eq!(seen, [(1, 2), (3, 1), (3, 2)]);
        assert!(sort_numbers((0..64).map(f64::from).collect()).1 as u64 <= sort_cost(64));
    }

    #[test]
    fn merge_sort_stops_at_the_first_error() {
        let mut calls = 0;
        let result = merge_sort_by(vec![4, 3, 2, 1], &mut |_, _| {
            calls += 1;
            if calls == 2 { Err("boom") } else { Ok(true) }
        });
        assert_eq!(result, Err("boom"));
        assert_eq!(calls, 2);
    }

    #[test]
    fn an_inconsistent_comparator_gives_jsonatas_order() {
        // A comparator that always says "after" reverses pairs at every merge: jsonata-js gives
        // [4,3,2,1] -> left [4,3] -> [3,4]; right [2,1] -> [1,2]; merge takes right first
        // each time -> [1,2,3,4].
        let sorted = merge_sort_by::<i32, ()>(vec![4, 3, 2, 1], &mut |_, _| Ok(true)).expect("no errors");
        assert_eq!(sorted, [1, 2, 3, 4]);
        let kept = merge_sort_by::<i32, ()>(vec![4, 3, 2, 1], &mut |_, _| Ok(false)).expect("no errors");
        assert_eq!(kept, [4, 3, 2, 1]);
    }

    #[test]
    fn sort_cost_bounds_the_comparisons() {
        assert_eq!(sort_cost(0), 0);
        assert_eq!(sort_cost(1), 0);
        assert_eq!(sort_cost(2), 2);
        assert_eq!(sort_cost(5), 15);
        for len in [3usize, 7, 10, 33, 100, 1000] {
            let items: Vec<f64> = (0..len).rev().map(|n| n as f64).collect();
            assert!(sort_numbers(items).1 as u64 <= sort_cost(len), "{len}");
        }
    }

    #[test]
    fn shuffle_is_inside_out_fisher_yates() {
        // Draws of 0 move each new item to the front: [a,b,c] -> [c,a,b].
        assert_eq!(
            shuffle_with(['a', 'b', 'c'].into_iter(), || Ok(0.0)).expect("no errors"),
            ['c', 'a', 'b']
        );
        // Draws just under 1 leave every item where it is.
        assert_eq!(
            shuffle_with(['a', 'b', 'c'].into_iter(), || Ok(0.999)).expect("no errors"),
            ['a', 'b', 'c']
        );
        // Out-of-range draws stay in range.
        assert_eq!(
            shuffle_with(['a', 'b'].into_iter(), || Ok(7.0)).expect("no errors"),
            ['a', 'b']
        );
        let mut draws = [0.0, 0.9, 0.4].into_iter();
        // i=0: j=0 -> [a]; i=1: j=1 -> [a,b]; i=2: j=1 -> [a,c,b].
        assert_eq!(
            shuffle_with(['a', 'b', 'c'].into_iter(), || Ok(draws.next().unwrap_or(0.0))).expect("no errors"),
            ['a', 'c', 'b']
        );
        let mut sorted = shuffle_with(0..50, || Ok(0.37)).expect("no errors");
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn distinct_keeps_the_first_of_each_value() {
        let nums = |ns: &[f64]| ns.iter().map(|n| Val::Number(*n)).collect::<Vec<_>>();
        let mut charged = 0;
        let kept = distinct_items(
            vec![
                Val::Number(1.0),
                Val::Number(-0.0),
                Val::Number(1.0),
                Val::Number(0.0),
                Val::from("1"),
                Val::array(nums(&[1.0, 2.0])),
                Val::Null,
                Val::array(nums(&[1.0, 2.0])),
                Val::array(nums(&[2.0, 1.0])),
                Val::Null,
                Val::from("1"),
            ]
            .into_iter(),
            &mut |n| {
                charged += n;
                Ok(())
            },
        )
        .expect("no errors");
        assert_eq!(
            format!("{kept:?}"),
            format!("{:?}", {
                vec![
                    Val::Number(1.0),
                    Val::Number(-0.0),
                    Val::from("1"),
                    Val::array(nums(&[1.0, 2.0])),
                    Val::Null,
                    Val::array(nums(&[2.0, 1.0])),
                ]
            })
        );
        // A step for each of the eight scalars; three arrays of two, charged two each to hash;
        // the repeat also compares three pairs (the arrays and their two items); [2, 1] hashes
        // apart and is compared with nothing.
        assert_eq!(charged, 17);
    }

    #[test]
    fn metered_equality_agrees_with_deep_equality() {
        let parse = |text: &str| Val::from(writ_core::parse_json(text).expect("valid JSON"));
        let pairs = [
            (
                r#"{"a":[1,{"b":null}],"c":"x"}"#,
                r#"{"c":"x","a":[1,{"b":null}]}"#,
                true,
            ),
            (r#"{"a":[1,{"b":null}]}"#, r#"{"a":[1,{"b":false}]}"#, false),
            ("[0]", "[-0]", true),
            ("[1,2]", "[2,1]", false),
            ("[[]]", "[{}]", false),
            (r#"{"a":1}"#, r#"{"b":1}"#, false),
            ("[1]", "[1,1]", false),
        ];
        for (a, b, equal) in pairs {
            let (a, b) = (parse(a), parse(b));
            let mut steps = 0;
            let metered = equal_metered(&a, &b, &mut |n| {
                steps += n;
                Ok(())
            });
            assert_eq!(metered, Ok(equal), "{a:?} {b:?}");
            assert_eq!(deep_equal(&a, &b), equal, "{a:?} {b:?}");
            assert!(steps >= 1);
            if equal {
                assert_eq!(shallow_hash(&a), shallow_hash(&b), "{a:?} {b:?}");
            }
        }
        let built = Val::array(vec![Val::Number(1.0), Val::array(vec![])]);
        assert_eq!(equal_metered(&built, &parse("[1,[]]"), &mut |_| Ok(())), Ok(true));
        assert_eq!(shallow_hash(&built), shallow_hash(&parse("[1,[]]")));
        let deep = (0..100_000).fold(Val::Null, |inner, _| Val::array(vec![inner]));
        assert_eq!(equal_metered(&deep, &deep.clone(), &mut |_| Ok(())), Ok(true));
        let refused = equal_metered(&deep, &deep, &mut |_| Err(Error::new(Code::U1006)));
        assert_eq!(refused.map_err(|e| e.details().code.as_str()), Err("U1006"));
    }

    #[test]
    fn javascript_truthiness_differs_from_jsonatas_on_containers() {
        assert!(!js_truthy(&Val::Undefined));
        assert!(!js_truthy(&Val::Null));
        assert!(!js_truthy(&Val::Number(0.0)));
        assert!(!js_truthy(&Val::from("")));
        assert!(js_truthy(&Val::from("false")));
        assert!(js_truthy(&Val::array(vec![])));
        assert!(js_truthy(&Val::Number(-1.0)));
    }

    #[test]
    fn plain_arrays_and_sequences_come_back_as_jsonata_gives_them() {
        // Sequences of one item unwrap; plain arrays stay arrays.
        assert_eq!(eval("$map([1], function($v){$v})", ""), "1");
        assert_eq!(eval("$filter([1,2], function($v){$v>1})", ""), "2");
        assert_eq!(eval("$map([1], function($v){$v})[]", ""), "[1]");
        assert_eq!(eval("$append([1], [])", ""), "[1]");
        assert_eq!(eval("$append(1, 2)", ""), "[1,2]");
        assert_eq!(eval("$append(1, nothing)", ""), "1");
        assert_eq!(eval("$append(nothing, [2])", ""), "[2]");
        assert_eq!(eval("$reverse([1,2,3])", ""), "[3,2,1]");
        assert_eq!(eval("$reverse([1])", ""), "[1]");
        assert_eq!(eval("$distinct([1,1])", ""), "[1]");
        assert_eq!(eval("$distinct(a.b)", r#"{"a":[{"b":1},{"b":1}]}"#), "1");
        assert_eq!(
            eval("$distinct(a)", r#"{"a":[{"x":[1]},{"x":[1]},{"x":[2]}]}"#),
            r#"[{"x":[1]},{"x":[2]}]"#
        );
        assert_eq!(eval("$zip([1,2],[3])", ""), "[[1,3]]");
        assert_eq!(eval("$zip([1,2], nothing)", ""), "[]");
        assert_eq!(eval("$count($shuffle([1..20]))", ""), "20");
        assert_eq!(eval("$sort($shuffle([1..5]))", ""), "[1,2,3,4,5]");
    }

    #[test]
    fn sorting_through_the_evaluator() {
        assert_eq!(eval("$sort([3,1,22,11])", ""), "[1,3,11,22]");
        assert_eq!(eval("$sort(['b','a','B'])", ""), r#"["B","a","b"]"#);
        assert_eq!(eval("$sort([1,'a'])", ""), "D3070");
        assert_eq!(
            eval("$sort([{'n':2},{'n':1}], function($a,$b){$a.n > $b.n}).n", ""),
            "[1,2]"
        );
        // The comparator's answer is read with JavaScript's truthiness: an empty array is true.
        assert_eq!(eval("$sort([[1],[2]], function($a,$b){[]})", ""), "[[2],[1]]");
        assert_eq!(eval("$sort(a)", r#"{"a":[]}"#), "[]");
    }

    #[test]
    fn higher_order_functions_through_the_evaluator() {
        assert_eq!(
            eval("$map([1,2], function($v,$i,$a){$v + $i + $count($a)})", ""),
            "[3,5]"
        );
        assert_eq!(eval("$map([1,2], $string)", ""), r#"["1","2"]"#);
        assert_eq!(eval("$filter([1,2,3], function($v,$i){$i != 1})", ""), "[1,3]");
        assert_eq!(eval("$single([1,2,3], function($v){$v = 2})", ""), "2");
        assert_eq!(eval("$single([1,2,3], function($v){$v > 1})", ""), "D3138");
        assert_eq!(eval("$single([1,2,3], function($v){$v > 5})", ""), "D3139");
        assert_eq!(eval("$single([])", ""), "D3139");
        assert_eq!(eval("$reduce([1,2,3], function($a,$b){$a+$b})", ""), "6");
        assert_eq!(eval("$reduce([1,2,3], function($a,$b){$a+$b}, 10)", ""), "16");
        assert_eq!(eval("$reduce([], function($a,$b){$a+$b}, 10)", ""), "10");
        assert_eq!(
            eval("$reduce([1,2,3], function($a,$b,$i,$all){$a+$b*$i+$count($all)})", ""),
            "15"
        );
        assert_eq!(eval("$reduce([1], function($a){$a})", ""), "D3050");
        assert_eq!(eval("$reduce(nothing, function($a){$a})", ""), "undefined");
    }

    #[test]
    fn bounds_hold() {
        let sequence = crate::JsonataLimits {
            sequence: Some(10),
            ..crate::JsonataLimits::default()
        };
        assert_eq!(eval_with("$append([1..6], [1..6])", "", sequence), "D2015");
        let steps = crate::JsonataLimits {
            steps: Some(100_000),
            ..crate::JsonataLimits::default()
        };
        assert_eq!(eval_with("$count($sort([1..1000]))", "", steps), "1000");
        assert_eq!(eval_with("$count($sort([1..20000]))", "", steps), "U1006");
        assert_eq!(eval_with("$count($distinct([1..2000].[[$ % 2]]))", "", steps), "2");
    }
}
