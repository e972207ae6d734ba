//! The registry of cells a plan may name.

use std::sync::Arc;

use crate::seam::{CellError, Evaluation, Fault, FaultKind, PredicateContext, PredicateEvaluator, PredicateNode};

/// The cells a host wires, by id. Nothing is wired by default: a node that names a cell the
/// registry lacks is refused at validation, naming the node, and faults at evaluation.
#[derive(Clone, Default)]
pub struct Registry {
    cells: Vec<Arc<dyn PredicateEvaluator>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Wires `cell` under its id.
    ///
    /// # Errors
    ///
    /// `cell-duplicate` when a cell with the same id is already wired: two cells answering to
    /// one name would make a plan's meaning depend on wiring order.
    pub fn register(&mut self, cell: Arc<dyn PredicateEvaluator>) -> Result<(), CellError> {
        if self.get(cell.id()).is_some() {
            return Err(CellError {
                code: "cell-duplicate",
                node: None,
                message: format!("a cell with id '{}' is already wired; wire each cell once", cell.id()),
            });
        }
        self.cells.push(cell);
        Ok(())
    }

    /// The cell wired under `id`.
    pub fn get(&self, id: &str) -> Option<&Arc<dyn PredicateEvaluator>> {
        self.cells.iter().find(|cell| cell.id() == id)
    }

    /// The ids of the wired cells, in wiring order.
    pub fn ids(&self) -> impl Iterator<Item = &str> + '_ {
        self.cells.iter().map(|cell| cell.id())
    }

    /// Loads every wired cell, stopping at the first that cannot load.
    ///
    /// # Errors
    ///
    /// The first cell's load failure.
    pub async fn load_all(&self) -> Result<(), CellError> {
        for cell in &self.cells {
            cell.load().await?;
        }
        Ok(())
    }

    /// Validates `node` with the cell it names, loading that cell first.
    ///
    /// # Errors
    ///
    /// `cell-unwired` when the node names no wired cell, else the cell's own refusal.
    pub async fn validate(&self, node: &PredicateNode) -> Result<(), CellError> {
        let cell = self.cell_for(node)?;
        cell.load().await?;
        cell.validate(node).await
    }

    /// Decides `node` with the cell it names. A node naming no wired cell gets its negative
    /// verdict with an [`FaultKind::Unwired`] fault.
    pub async fn evaluate(&self, node: &PredicateNode, context: &PredicateContext) -> Evaluation {
        match self.cell_for(node) {
            Ok(cell) => cell.evaluate(node, context).await,
            Err(error) => Evaluation::faulted(node, Fault::new(FaultKind::Unwired, error.code, error.message)),
        }
    }

    fn cell_for(&self, node: &PredicateNode) -> Result<&Arc<dyn PredicateEvaluator>, CellError> {
        let id = node.evaluator.to_string_lossy();
        self.get(&id).ok_or_else(|| {
            let wired: Vec<&str> = self.ids().collect();
            CellError {
                code: "cell-unwired",
                node: Some(node.id.clone()),
                message: format!(
                    "node '{}' names the predicate cell '{id}', which is not wired ({}); wire it, or name one of those",
                    node.id,
                    if wired.is_empty() {
                        "no cell is wired".to_string()
                    } else {
                        format!("wired: {}", wired.join(", "))
                    }
                ),
            }
        })
    }
}
