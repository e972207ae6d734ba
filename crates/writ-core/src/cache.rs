//! [`FifoCache`]: the one bounded cache every engine keeps what it built in.

use std::borrow::Borrow;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A map of at most a fixed number of entries, and optionally of a fixed total weight, that
/// drops its oldest entry first to make room: what an engine keeps of what it built from a
/// source (parsed programs, compiled chunks, formatters).
///
/// It is shared by threads (`&self` everywhere, a lock inside held only to read or write the
/// map, never while a value is built) and hands out clones of its values, so values are
/// usually `Arc`s. Lookups hash the key (sources and option texts can be crafted, so the hash
/// is keyed per map) and do not make an entry younger: eviction is first in, first out, so a
/// lookup writes nothing. A thread that panicked while holding the lock cannot have left an
/// entry half written, so the cache goes on working after it.
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use writ_core::FifoCache;
///
/// let parsed: FifoCache<String, Arc<Vec<String>>> = FifoCache::new(2);
/// let words = |source: &str| Ok::<_, String>(Arc::new(source.split(' ').map(String::from).collect()));
/// let (first, built) = parsed.get_or_try_insert_with("a b", || words("a b"))?;
/// assert!(built);
/// let (again, built) = parsed.get_or_try_insert_with("a b", || words("a b"))?;
/// assert!(!built && Arc::ptr_eq(&first, &again));
/// parsed.get_or_try_insert_with("c", || words("c"))?;
/// parsed.get_or_try_insert_with("d", || words("d"))?;
/// assert!(parsed.get("a b").is_none(), "the oldest entry made room");
/// # Ok::<(), String>(())
/// ```
pub struct FifoCache<K, V> {
    /// The most entries kept.
    capacity: usize,
    /// The most total weight kept.
    max_weight: usize,
    /// The weight of one entry.
    weigh: fn(&K, &V) -> usize,
    /// The entries.
    entries: Mutex<Entries<K, V>>,
}

/// What the lock guards.
struct Entries<K, V> {
    /// Each value with its weight.
    map: HashMap<K, (V, usize)>,
    /// The keys, oldest first.
    order: VecDeque<K>,
    /// The total weight of the entries.
    weight: usize,
}

/// The weight of every entry in a cache bounded only by its entry count.
fn weightless<K, V>(_: &K, _: &V) -> usize {
    0
}

impl<K: Hash + Eq + Clone, V: Clone> FifoCache<K, V> {
    /// An empty cache of at most `capacity` entries (none when it is 0).
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<u32, &str> = FifoCache::new(256);
    /// assert!(cache.is_empty());
    /// ```
    pub fn new(capacity: usize) -> FifoCache<K, V> {
        FifoCache::weighted(capacity, usize::MAX, weightless)
    }

    /// An empty cache of at most `capacity` entries whose weights, as `weigh` gives them, add up
    /// to at most `max_weight`; an entry heavier than `max_weight` on its own is not kept.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// // Sources by their length in bytes: at most 8 bytes of them.
    /// let cache: FifoCache<String, u32> = FifoCache::weighted(100, 8, |source: &String, _| source.len());
    /// cache.insert("abcd".to_owned(), 1);
    /// cache.insert("efgh".to_owned(), 2);
    /// cache.insert("ij".to_owned(), 3);
    /// assert!(!cache.contains_key("abcd") && cache.contains_key("efgh") && cache.contains_key("ij"));
    /// assert!(!cache.insert("a source longer than the bound".to_owned(), 4));
    /// ```
    pub fn weighted(capacity: usize, max_weight: usize, weigh: fn(&K, &V) -> usize) -> FifoCache<K, V> {
        FifoCache {
            capacity,
            max_weight,
            weigh,
            entries: Mutex::new(Entries {
                map: HashMap::new(),
                order: VecDeque::new(),
                weight: 0,
            }),
        }
    }

    /// A clone of the value under `key`, if the cache has one.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<String, u32> = FifoCache::new(4);
    /// cache.insert("one".to_owned(), 1);
    /// assert_eq!(cache.get("one"), Some(1));
    /// assert_eq!(cache.get("two"), None);
    /// ```
    pub fn get<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.lock().map.get(key).map(|(value, _)| value.clone())
    }

    /// Whether the cache has a value under `key`.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<String, u32> = FifoCache::new(4);
    /// cache.insert("one".to_owned(), 1);
    /// assert!(cache.contains_key("one"));
    /// ```
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.lock().map.contains_key(key)
    }

    /// Keeps `value` under `key`, dropping the oldest entries until it fits, and answers true;
    /// answers false, changing nothing, when `key` already has a value (the first is kept) or
    /// the entry could never fit.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<&str, u32> = FifoCache::new(4);
    /// assert!(cache.insert("one", 1));
    /// assert!(!cache.insert("one", 2));
    /// assert_eq!(cache.get("one"), Some(1));
    /// ```
    pub fn insert(&self, key: K, value: V) -> bool {
        let weight = (self.weigh)(&key, &value);
        if self.capacity == 0 || weight > self.max_weight {
            return false;
        }
        let mut entries = self.lock();
        let Entries {
            map,
            order,
            weight: total,
        } = &mut *entries;
        if map.contains_key(&key) {
            return false;
        }
        while map.len() >= self.capacity || total.saturating_add(weight) > self.max_weight {
            let Some(oldest) = order.pop_front() else { break };
            if let Some((_, dropped)) = map.remove(&oldest) {
                *total -= dropped;
            }
        }
        *total += weight;
        order.push_back(key.clone());
        map.insert(key, (value, weight));
        true
    }

    /// The value under `key`, and false; or, when there is none, the value `build` makes, kept
    /// as [`FifoCache::insert`] keeps it, and true. `build` runs without the lock, so two
    /// threads may both build a value for a new key (the first stored is kept); an error from
    /// `build` is returned and nothing is kept.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<String, u32> = FifoCache::new(4);
    /// assert_eq!(cache.get_or_try_insert_with("7", || "7".parse::<u32>()), Ok((7, true)));
    /// assert_eq!(cache.get_or_try_insert_with("7", || "7".parse::<u32>()), Ok((7, false)));
    /// assert!(cache.get_or_try_insert_with("x", || "x".parse::<u32>()).is_err());
    /// assert!(!cache.contains_key("x"), "a failed build is not kept");
    /// ```
    pub fn get_or_try_insert_with<Q, E>(&self, key: &Q, build: impl FnOnce() -> Result<V, E>) -> Result<(V, bool), E>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(found) = self.get(key) {
            return Ok((found, false));
        }
        let built = build()?;
        self.insert(key.to_owned(), built.clone());
        Ok((built, true))
    }

    /// The number of entries.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<u32, u32> = FifoCache::new(2);
    /// for key in 0..5 {
    ///     cache.insert(key, key);
    /// }
    /// assert_eq!(cache.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether the cache has no entries.
    ///
    /// ```
    /// use writ_core::FifoCache;
    ///
    /// let cache: FifoCache<u32, u32> = FifoCache::new(2);
    /// assert!(cache.is_empty());
    /// cache.insert(1, 1);
    /// assert!(!cache.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.lock().map.is_empty()
    }

    /// The entries, even after a thread panicked holding them: every entry is written whole
    /// under the lock.
    fn lock(&self) -> MutexGuard<'_, Entries<K, V>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<K, V> fmt::Debug for FifoCache<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("FifoCache")
            .field("capacity", &self.capacity)
            .field("max_weight", &self.max_weight)
            .field("len", &entries.map.len())
            .field("weight", &entries.weight)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The keys of `cache`, oldest first.
    fn keys<K: Clone, V>(cache: &FifoCache<K, V>) -> Vec<K> {
        let entries = cache.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.order.iter().cloned().collect()
    }

    #[test]
    fn the_oldest_entry_makes_room_first_and_reading_does_not_make_one_younger() {
        let cache: FifoCache<u32, u32> = FifoCache::new(3);
        for key in 0..3 {
            assert!(cache.insert(key, key * 10));
        }
        assert_eq!(cache.get(&0), Some(0), "reading the oldest entry");
        cache.insert(3, 30);
        assert_eq!(
            keys(&cache),
            [1, 2, 3],
            "the entry read is still the oldest, and went first"
        );
        cache.insert(4, 40);
        assert_eq!(keys(&cache), [2, 3, 4]);
        assert_eq!(cache.get(&1), None);
        assert_eq!(cache.get(&4), Some(40));
    }

    #[test]
    fn a_cache_holds_at_most_its_capacity() {
        const CAPACITY: usize = 256;
        let cache: FifoCache<String, Arc<usize>> = FifoCache::new(CAPACITY);
        for idx in 0..CAPACITY + 10 {
            let (value, built) = cache
                .get_or_try_insert_with(idx.to_string().as_str(), || Ok::<_, ()>(Arc::new(idx)))
                .unwrap_or_default();
            assert!(built);
            assert_eq!(*value, idx);
            assert!(cache.len() <= CAPACITY);
        }
        assert_eq!(cache.len(), CAPACITY);
        for gone in 0..10 {
            assert!(
                !cache.contains_key(gone.to_string().as_str()),
                "entry {gone} was among the oldest"
            );
        }
        let newest = (CAPACITY + 9).to_string();
        let mut built_again = false;
        let (value, built) = cache
            .get_or_try_insert_with(newest.as_str(), || {
                built_again = true;
                Ok::<_, ()>(Arc::new(0))
            })
            .unwrap_or_default();
        assert!(!built && !built_again, "a kept entry is not built again");
        assert_eq!(*value, CAPACITY + 9);
    }

    #[test]
    fn a_capacity_of_zero_keeps_nothing() {
        let cache: FifoCache<u32, u32> = FifoCache::new(0);
        assert!(!cache.insert(1, 1));
        assert_eq!(cache.get_or_try_insert_with(&2, || Ok::<_, ()>(2)), Ok((2, true)));
        assert!(cache.is_empty());
    }

    #[test]
    fn the_weight_bound_drops_as_many_old_entries_as_it_takes() {
        let cache: FifoCache<String, u32> = FifoCache::weighted(10, 10, |key: &String, _| key.len());
        for key in ["aaaa", "bbb", "cc", "d"] {
            assert!(cache.insert(key.to_owned(), 0));
        }
        assert_eq!(keys(&cache), ["aaaa", "bbb", "cc", "d"]);
        assert!(cache.insert("eeeeee".to_owned(), 0), "6 more bytes: the two oldest go");
        assert_eq!(keys(&cache), ["cc", "d", "eeeeee"]);
        assert!(cache.insert("f".to_owned(), 0), "it fits beside the rest");
        assert_eq!(keys(&cache), ["cc", "d", "eeeeee", "f"]);
        assert!(!cache.insert("g".repeat(11), 0), "heavier than the whole bound");
        assert_eq!(keys(&cache), ["cc", "d", "eeeeee", "f"], "and nothing made room for it");
        assert!(cache.insert("h".repeat(10), 0), "exactly the bound");
        assert_eq!(keys(&cache), ["h".repeat(10)]);
        let weight = cache.entries.lock().unwrap_or_else(PoisonError::into_inner).weight;
        assert_eq!(weight, 10);
    }

    #[test]
    fn the_entry_count_bounds_a_weighted_cache_too() {
        let cache: FifoCache<u32, u32> = FifoCache::weighted(2, 1000, |_, value| *value as usize);
        for key in 0..3 {
            cache.insert(key, 1);
        }
        assert_eq!(keys(&cache), [1, 2]);
        assert_eq!(cache.entries.lock().unwrap_or_else(PoisonError::into_inner).weight, 2);
    }

    #[test]
    fn inserting_a_key_again_keeps_the_first_value() {
        let cache: FifoCache<&str, u32> = FifoCache::new(4);
        assert!(cache.insert("k", 1));
        assert!(!cache.insert("k", 2));
        assert_eq!(cache.get("k"), Some(1));
        assert_eq!(cache.len(), 1);
        assert_eq!(keys(&cache), ["k"], "the order lists a key once");
    }

    #[test]
    fn a_build_error_is_returned_and_not_kept() {
        let cache: FifoCache<String, u32> = FifoCache::new(4);
        assert_eq!(cache.get_or_try_insert_with("k", || Err("broken")), Err("broken"));
        assert!(cache.is_empty());
        assert_eq!(cache.get_or_try_insert_with("k", || Ok::<_, &str>(5)), Ok((5, true)));
        assert_eq!(cache.get_or_try_insert_with("k", || Err("broken")), Ok((5, false)));
    }

    #[test]
    fn a_thread_that_panics_holding_the_lock_leaves_the_cache_working() {
        let cache: FifoCache<u32, u32> = FifoCache::new(4);
        cache.insert(1, 1);
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _guard = cache.lock();
            panic!("a thread dies holding the lock");
        }));
        assert!(panicked.is_err());
        assert!(cache.entries.is_poisoned());
        assert_eq!(cache.get(&1), Some(1));
        assert!(cache.insert(2, 2));
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn threads_share_one_cache_within_its_bounds() {
        const THREADS: u32 = 8;
        const KEYS: u32 = 64;
        let cache: FifoCache<u32, Arc<u32>> = FifoCache::new(32);
        let builds = std::sync::atomic::AtomicU32::new(0);
        std::thread::scope(|scope| {
            for thread in 0..THREADS {
                let (cache, builds) = (&cache, &builds);
                scope.spawn(move || {
                    for round in 0..KEYS * 4 {
                        let key = (round * 7 + thread) % KEYS;
                        let (value, _) = cache
                            .get_or_try_insert_with(&key, || {
                                builds.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                Ok::<_, ()>(Arc::new(key * 2))
                            })
                            .unwrap_or_default();
                        assert_eq!(*value, key * 2);
                        assert!(cache.len() <= 32);
                    }
                });
            }
        });
        assert_eq!(cache.len(), 32);
        let kept = keys(&cache);
        let distinct: std::collections::HashSet<_> = kept.iter().collect();
        assert_eq!(distinct.len(), kept.len(), "no key is listed twice");
        for key in kept {
            assert_eq!(cache.get(&key).as_deref(), Some(&(key * 2)));
        }
        assert!(builds.load(std::sync::atomic::Ordering::Relaxed) >= KEYS);
    }
}
