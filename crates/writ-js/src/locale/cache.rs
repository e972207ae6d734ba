//! Small caches of built formatters and collators, oldest dropped first.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::error::Result;

/// Formatters and collators kept per kind, oldest dropped first.
pub(super) const CACHE_SIZE: usize = 64;

/// Built formatters or collators of one kind, oldest dropped first.
pub(super) struct Cache<T> {
    /// Oldest first.
    entries: VecDeque<(String, Arc<T>)>,
}

impl<T> Cache<T> {
    /// An empty cache.
    pub(super) const fn new() -> Cache<T> {
        Cache {
            entries: VecDeque::new(),
        }
    }
}

/// The entry for `key`, if the cache has it.
pub(super) fn lookup<T>(cache: &Mutex<Cache<T>>, key: &str) -> Option<Arc<T>> {
    lock(cache)
        .entries
        .iter()
        .find(|(known, _)| known == key)
        .map(|(_, value)| Arc::clone(value))
}

/// Keeps `value` for `key`, dropping the oldest entry when the cache is full.
pub(super) fn store<T>(cache: &Mutex<Cache<T>>, key: String, value: Arc<T>) {
    let mut guard = lock(cache);
    if guard.entries.iter().any(|(known, _)| *known == key) {
        return;
    }
    if guard.entries.len() >= CACHE_SIZE {
        guard.entries.pop_front();
    }
    guard.entries.push_back((key, value));
}

/// The cache, even if a thread panicked while holding it (entries are whole values).
pub(super) fn lock<T>(cache: &Mutex<Cache<T>>) -> std::sync::MutexGuard<'_, Cache<T>> {
    cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The entry for `key`, built with `build` if missing; also whether it was built.
pub(super) fn cached_with_flag<T>(
    cache: &Mutex<Cache<T>>,
    key: &str,
    build: impl FnOnce() -> Result<T>,
) -> Result<(Arc<T>, bool)> {
    if let Some(hit) = lookup(cache, key) {
        return Ok((hit, false));
    }
    // Built outside the lock: another evaluation may build the same entry meanwhile.
    let built = Arc::new(build()?);
    store(cache, key.to_owned(), Arc::clone(&built));
    Ok((built, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache keeps its 64 newest entries.
    #[test]
    pub(super) fn caches_drop_the_oldest_entry() {
        /// A cache of this test alone.
        static CACHE: Mutex<Cache<usize>> = Mutex::new(Cache::new());
        for i in 0..CACHE_SIZE + 6 {
            let (value, built) =
                cached_with_flag(&CACHE, &format!("key {i}"), || Ok(i)).unwrap_or((Arc::new(0), false));
            assert!(built);
            assert_eq!(*value, i);
        }
        let (_, built) =
            cached_with_flag(&CACHE, &format!("key {}", CACHE_SIZE + 5), || Ok(0)).unwrap_or((Arc::new(0), true));
        assert!(!built, "the newest entry is kept");
        let (_, built) = cached_with_flag(&CACHE, "key 0", || Ok(0)).unwrap_or((Arc::new(0), false));
        assert!(built, "the oldest entry was dropped");
        assert!(lock(&CACHE).entries.len() <= CACHE_SIZE);
    }
}
