//! Tidy checks that run as tests: the crate graph follows ARCHITECTURE.md's table, every Rust
//! file opens with a `//!` line, library crates deny missing docs and unsafe code, and no test
//! is ignored or expected to panic.

use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The writ crates each crate may depend on (normal dependencies), read from ARCHITECTURE.md's
/// table of allowed edges, so the document and the check cannot drift apart. Any crate may take
/// `writ-testkit` as a dev-dependency.
fn allowed_edges() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md exists");
    let table = text
        .split_once("| crate | may depend on |")
        .expect("ARCHITECTURE.md has the table of allowed edges")
        .1;
    let names = |cell: &str| -> Vec<String> {
        cell.split(',')
            .map(|name| name.trim().trim_matches('`').to_string())
            .filter(|name| name.starts_with("writ-"))
            .collect()
    };
    table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
            assert_eq!(cells.len(), 2, "a row of the allowed-edges table has two cells: {line}");
            (cells[0].trim().trim_matches('`').to_string(), names(cells[1]))
        })
        .collect()
}

fn manifests() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ exists")
        .map(|entry| entry.expect("a directory entry").path().join("Cargo.toml"))
        .filter(|path| path.is_file())
        .collect();
    manifests.push(root.join("bench/Cargo.toml"));
    manifests.push(root.join("examples/demo-tools/Cargo.toml"));
    manifests.sort();
    manifests
}

/// The package name and the writ crates under `[dependencies]` and `[dev-dependencies]`.
fn writ_dependencies(manifest: &Path) -> (String, Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(manifest).expect("a readable manifest");
    let mut name = String::new();
    let mut section = String::new();
    let (mut normal, mut dev) = (Vec::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        if let Some(value) = line.strip_prefix("name = ").filter(|_| section == "[package]") {
            name = value.trim_matches('"').to_string();
        }
        let Some(dependency) = line
            .split(['=', '.', ' '])
            .next()
            .filter(|key| key.starts_with("writ-"))
        else {
            continue;
        };
        match section.as_str() {
            "[dependencies]" => normal.push(dependency.to_string()),
            "[dev-dependencies]" => dev.push(dependency.to_string()),
            other => panic!("{}: writ dependency {dependency} under {other}", manifest.display()),
        }
    }
    (name, normal, dev)
}

#[test]
fn crate_graph_follows_the_architecture() {
    let edges = allowed_edges();
    let mut seen = Vec::new();
    for manifest in manifests() {
        let (name, normal, dev) = writ_dependencies(&manifest);
        let allowed = &edges
            .iter()
            .find(|(crate_name, _)| *crate_name == name)
            .unwrap_or_else(|| panic!("{name} is missing from ARCHITECTURE.md's table of allowed edges"))
            .1;
        for dependency in &normal {
            assert!(allowed.contains(dependency), "{name} may not depend on {dependency}");
        }
        for dependency in &dev {
            assert!(
                dependency == "writ-testkit" || allowed.contains(dependency),
                "{name} may not take {dependency} as a dev-dependency"
            );
        }
        seen.push(name);
    }
    seen.sort();
    let mut listed: Vec<String> = edges.into_iter().map(|(name, _)| name).collect();
    listed.sort_unstable();
    assert_eq!(
        seen, listed,
        "every crate is in ARCHITECTURE.md's table, and every crate listed exists"
    );
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if !path.ends_with("target") && !path.ends_with("node_modules") {
                rust_files(&path, files);
            }
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn every_rust_file_says_its_job_and_no_test_is_skipped() {
    let root = workspace_root();
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    rust_files(&root.join("bench"), &mut files);
    rust_files(&root.join("examples"), &mut files);
    assert!(files.len() > 10, "found only {} files", files.len());
    // Spelled in two halves so this file does not trip its own check.
    let banned = [concat!("#[ig", "nore"), concat!("#[should", "_panic")];
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable file");
        assert!(
            text.starts_with("//!"),
            "{} must open with a //! line saying its job",
            file.display()
        );
        for marker in banned {
            assert!(
                !text.contains(marker),
                "{} uses {marker}]: assert the behaviour instead",
                file.display()
            );
        }
    }
}

#[test]
fn library_crates_deny_missing_docs_and_unsafe_code() {
    for manifest in manifests() {
        let lib = manifest.with_file_name("src/lib.rs");
        if !lib.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&lib).expect("a readable lib.rs");
        for attribute in ["#![deny(missing_docs)]", "#![forbid(unsafe_code)]"] {
            assert!(text.contains(attribute), "{} lacks {attribute}", lib.display());
        }
    }
}
