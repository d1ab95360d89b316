//! The house's rule, read from the sources: the rooms of `api/src` (see `lib.rs`) import one
//! way, down the list, and the route modules import each other without a circle. A new import
//! that runs back up fails here, naming the file and the line.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// Each room and the rooms it may use (the crate root's `lib.rs` and `main.rs` excepted).
const ROOMS: &[(&str, &[&str])] = &[
    ("net", &[]),
    ("config", &["net"]),
    ("log", &["config"]),
    ("chain", &["config"]),
    ("files", &["config"]),
    ("mail", &["config"]),
    ("node", &["config", "net", "log", "chain", "files", "mail"]),
    ("http", &["config", "net", "log", "chain", "files", "mail", "node"]),
    ("ops", &["config", "log", "chain", "files", "node"]),
    ("demo", &["config", "log", "chain"]),
    ("serve", &["config", "net", "log", "chain", "files", "mail", "node", "http", "ops", "demo"]),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The room a file belongs to: its first folder under `src`, or its name for a file there.
fn room_of(file: &Path) -> String {
    let relative = file.strip_prefix(src()).unwrap();
    let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_owned()
}

/// The code of a file without its comments (doc links may name any room).
fn code_lines(file: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(file)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or("").to_owned()))
        .collect()
}

/// The rooms a line names: `crate::room`, or a `room::` item of a `use crate::{...}` group
/// (what rustfmt writes on their own lines inside the group).
fn rooms_named(line: &str, in_crate_group: bool) -> Vec<String> {
    let known: BTreeSet<&str> = ROOMS.iter().map(|(room, _)| *room).collect();
    let mut named = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        named.push(word);
        if let Some(group) = rest.strip_prefix('{') {
            for item in group.split(',') {
                named.push(item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
            }
        }
    }
    if in_crate_group {
        let word: String = line.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if line.trim().starts_with(&format!("{word}::")) || line.trim() == format!("{word},") {
            named.push(word);
        }
    }
    named.retain(|w| known.contains(w.as_str()));
    named
}

#[test]
fn every_room_imports_only_the_rooms_below_it() {
    let allowed: BTreeMap<&str, &[&str]> = ROOMS.iter().copied().collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let room = room_of(file);
        if room == "lib" || room == "main" {
            continue;
        }
        let may = allowed.get(room.as_str()).unwrap_or_else(|| panic!("{}: a room not in ROOMS: {room}", file.display()));
        let mut in_crate_group = false;
        for (number, line) in code_lines(file) {
            if line.trim_start().starts_with("use crate::{") {
                in_crate_group = true;
            }
            for named in rooms_named(&line, in_crate_group) {
                if named != room && !may.contains(&named.as_str()) {
                    wrong.push(format!("{}:{number}: {room} uses {named}", file.strip_prefix(src()).unwrap().display()));
                }
            }
            if in_crate_group && line.trim_end().ends_with("};") {
                in_crate_group = false;
            }
        }
    }
    assert!(wrong.is_empty(), "imports that run back up:\n{}", wrong.join("\n"));
}

#[test]
fn the_route_modules_import_each_other_without_a_circle() {
    let routes = src().join("http/routes");
    let mut files = Vec::new();
    rust_files(&routes, &mut files);
    let module = |file: &Path| -> String {
        let relative = file.strip_prefix(&routes).unwrap();
        relative.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_owned()
    };
    let names: BTreeSet<String> = files.iter().map(|f| module(f)).filter(|m| m != "mod").collect();
    // Which route modules each one names (as `super::x`, `routes::x` or an item of `use super::{...}`).
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module(file);
        let mut in_super_group = false;
        for (_, line) in code_lines(file) {
            if line.trim_start().starts_with("use super::{") {
                in_super_group = true;
            }
            let mut named: Vec<String> = Vec::new();
            for prefix in ["super::", "routes::"] {
                for (at, _) in line.match_indices(prefix) {
                    named.push(line[at + prefix.len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
                }
            }
            if in_super_group {
                named.push(line.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
            }
            if in_super_group && line.trim_end().ends_with("};") {
                in_super_group = false;
            }
            // A test module's `use super::*` is its own file's.
            let is_child = file.strip_prefix(&routes).unwrap().components().count() > 1;
            for name in named {
                if names.contains(&name) && name != from && !(is_child && line.contains("use super::")) {
                    uses.entry(from.clone()).or_default().insert(name);
                }
            }
        }
    }
    // Depth-first search for a cycle.
    fn visit(node: &str, uses: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) {
        if let Some(at) = path.iter().position(|p| p == node) {
            panic!("route modules in a circle: {} -> {node}", path[at..].join(" -> "));
        }
        if !done.insert(node.to_owned()) {
            return;
        }
        path.push(node.to_owned());
        for next in uses.get(node).into_iter().flatten() {
            visit(next, uses, path, done);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for name in &names {
        let mut path = Vec::new();
        // `done` marks nodes whose subtree was fully searched; restart the path per root.
        visit(name, &uses, &mut path, &mut done);
    }
    assert!(uses.get("nft").is_none_or(|u| !u.contains("traits")), "the NFT lists take the trait filters from `lists`, not `traits`");
}
