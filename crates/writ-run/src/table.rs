//! The output table a frame reads: every output settled on its route, by frame key.
//!
//! A frame's table is its parent's table plus the parent's own output (a merged join frame's is
//! the union of its arrivals' tables). Tables are persistent maps, so each frame shares its
//! parent's entries instead of copying them: a chain of n steps costs O(log n) a step.

use std::sync::Arc;

use foldhash::fast::RandomState;
use imbl::GenericHashMap;
use imbl::shared_ptr::DefaultSharedPtr;
use serde_json::Value as Json;

/// A persistent map hashed with foldhash: its keys are frame keys, as long as routes.
type PersistentMap<K, V> = GenericHashMap<K, V, RandomState, DefaultSharedPtr>;

/// One settled output: the node that produced it and its items.
#[derive(Debug)]
pub(crate) struct Output {
    pub(crate) node_id: Arc<str>,
    pub(crate) items: Vec<Json>,
}

/// The outputs visible to a frame.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    /// Every output, by frame key `nodeId:branchKey`.
    entries: PersistentMap<Arc<str>, Arc<Output>>,
    /// For each node, the key of its first output in table order (ancestors before
    /// descendants; a join's arrivals in the order of their incoming edges), which a reference
    /// without a branch id reads.
    first_by_node: PersistentMap<Arc<str>, Arc<str>>,
}

impl Table {
    /// The table with `output` filed under `key`.
    pub(crate) fn with(&self, key: Arc<str>, output: Arc<Output>) -> Table {
        let mut table = self.clone();
        if !table.first_by_node.contains_key(&output.node_id) {
            table.first_by_node.insert(output.node_id.clone(), key.clone());
        }
        table.entries.insert(key, output);
        table
    }

    /// The union of `tables`, earlier tables first in order.
    pub(crate) fn union<'t>(tables: impl IntoIterator<Item = &'t Table>) -> Table {
        let mut tables = tables.into_iter();
        let Some(first) = tables.next() else {
            return Table::default();
        };
        let mut merged = first.clone();
        for table in tables {
            // `union` keeps the receiver's value on a clash: the earlier table's first key
            // stays first, and a shared key holds the same output either way.
            merged.entries = merged.entries.union(table.entries.clone());
            merged.first_by_node = merged.first_by_node.union(table.first_by_node.clone());
        }
        merged
    }

    /// The output under `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Arc<Output>> {
        self.entries.get(key)
    }

    /// The first output of node `node_id` in table order.
    pub(crate) fn first_of(&self, node_id: &str) -> Option<&Arc<Output>> {
        self.first_by_node.get(node_id).and_then(|key| self.entries.get(key))
    }

    /// Every entry, ordered by key (byte order), so what a predicate reads does not depend on
    /// the order concurrent frames happened to settle in.
    pub(crate) fn sorted(&self) -> Vec<(&Arc<str>, &Arc<Output>)> {
        let mut entries: Vec<_> = self.entries.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        entries
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn output(node: &str, value: Json) -> Arc<Output> {
        Arc::new(Output {
            node_id: node.into(),
            items: vec![value],
        })
    }

    #[test]
    fn a_child_table_shares_and_extends_its_parent() {
        let root = Table::default().with("entry:".into(), output("entry", json!({"a": 1})));
        let child = root.with("x:e1:a".into(), output("x", json!(2)));
        assert!(root.get("x:e1:a").is_none());
        assert_eq!(child.get("entry:").unwrap().items, vec![json!({"a": 1})]);
        assert_eq!(child.first_of("x").unwrap().items, vec![json!(2)]);
    }

    #[test]
    fn the_first_output_of_a_node_is_the_earliest_tables() {
        let left = Table::default().with("c:e1:a".into(), output("c", json!("left")));
        let right = Table::default().with("c:e1:b".into(), output("c", json!("right")));
        assert_eq!(
            Table::union([&left, &right]).first_of("c").unwrap().items,
            vec![json!("left")]
        );
        assert_eq!(
            Table::union([&right, &left]).first_of("c").unwrap().items,
            vec![json!("right")]
        );
        let keys: Vec<_> = Table::union([&right, &left])
            .sorted()
            .into_iter()
            .map(|(key, _)| key.to_string())
            .collect();
        assert_eq!(keys, ["c:e1:a", "c:e1:b"]);
    }
}
