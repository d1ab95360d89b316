//! The routes `api/src` registers, read from the source: handlers registered with `routes!(...)`
//! (at the method and path of their `#[utoipa::path]`), their `also_at` aliases, and any plain
//! axum registration (`.route(`, `.route_service(`, `.nest(`, `.nest_service(`), which serves a
//! route without documenting it. Read independently of the document, so the two can be compared.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

/// A route the source registers, and where.
#[derive(Debug)]
pub struct Registration {
    pub method: String,
    pub path: String,
    /// `file: how` (for messages).
    pub origin: String,
    /// For an `also_at` alias: the path of the operation it serves.
    pub alias_of: Option<String>,
}

/// Every registration under `src`.
pub fn registrations(src: &Path) -> Vec<Registration> {
    let mut handlers = BTreeMap::new(); // handler name -> (METHOD, path, file)
    let mut registered = Vec::new(); // (handler name, alias, file)
    let mut found = Vec::new();
    for file in rust_files(src) {
        let name = file.strip_prefix(src).unwrap().display().to_string();
        let code = strip_comments(&std::fs::read_to_string(&file).unwrap());
        for (method, path, handler) in annotations(&code, &name) {
            let previous = handlers.insert(handler.clone(), (method, path, name.clone()));
            assert!(previous.is_none(), "two handlers named `{handler}`: the coverage test tells them apart by name");
        }
        for start in find_all(&code, "routes!(") {
            let args = balanced(&code, start + "routes!".len());
            let alias = alias_after(&code, start);
            for handler in args.split(',').map(str::trim).filter(|h| !h.is_empty()) {
                let handler = handler.rsplit("::").next().unwrap().to_owned();
                registered.push((handler.clone(), None, name.clone()));
                if let Some(alias) = &alias {
                    registered.push((handler, Some(alias.clone()), name.clone()));
                }
            }
        }
        for call in [".route(", ".route_service(", ".nest(", ".nest_service("] {
            for start in find_all(&code, call) {
                let args = balanced(&code, start + call.len() - 1);
                let path = first_string(args).unwrap_or_else(|| panic!("{name}: `{call}` with no path literal: {args}"));
                let how = format!("{name}: plain `{call}...)`, not documented: register it with routes!() and a #[utoipa::path]");
                let methods = if call == ".route(" { methods_in(args) } else { vec!["ANY".to_owned()] };
                assert!(!methods.is_empty(), "{name}: cannot read the methods of `{call}{args})`");
                found.extend(methods.into_iter().map(|method| Registration {
                    method,
                    path: path.clone(),
                    origin: how.clone(),
                    alias_of: None,
                }));
            }
        }
    }
    for (handler, alias, file) in registered {
        let (method, path, defined) = handlers
            .get(&handler)
            .unwrap_or_else(|| panic!("{file}: routes!({handler}) but no #[utoipa::path] on a `fn {handler}` the test can read"));
        let origin = format!("{file}: routes!({handler}) (#[utoipa::path] in {defined})");
        let alias_of = alias.is_some().then(|| path.clone());
        found.push(Registration { method: method.clone(), path: alias.unwrap_or_else(|| path.clone()), origin, alias_of });
    }
    found
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Each `#[utoipa::path(method, path = "...", ...)]` with the name of the `fn` it annotates.
fn annotations(code: &str, file: &str) -> Vec<(String, String, String)> {
    find_all(code, "#[utoipa::path(")
        .into_iter()
        .map(|start| {
            let open = start + "#[utoipa::path".len();
            let args = balanced(code, open);
            let method = args.split(',').next().unwrap().trim().to_uppercase();
            assert!(
                ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"].contains(&method.as_str()),
                "{file}: #[utoipa::path] must name its one method first (`get, path = ...`): {args}"
            );
            let path = args
                .split_once("path =")
                .and_then(|(_, rest)| first_string(rest))
                .unwrap_or_else(|| panic!("{file}: #[utoipa::path] without `path = \"...\"`: {args}"));
            let after = &code[open + args.len() + 2..];
            let handler = after
                .split_once("fn ")
                .map(|(_, rest)| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>())
                .unwrap_or_else(|| panic!("{file}: #[utoipa::path] on no fn"));
            (method, path, handler)
        })
        .collect()
}

/// The alias of `also_at(routes!(...), "alias")` around the `routes!(` at `start`, if any.
fn alias_after(code: &str, start: usize) -> Option<String> {
    let before = code[..start].trim_end();
    if !before.ends_with("also_at(") {
        return None;
    }
    let args = balanced(code, before.len() - 1);
    let after_routes = args.split_once(')').map(|(_, rest)| rest).unwrap_or_default();
    Some(first_string(after_routes).expect("also_at names its alias as a literal"))
}

/// The byte offsets where `needle` occurs.
fn find_all(code: &str, needle: &str) -> Vec<usize> {
    code.match_indices(needle).map(|(i, _)| i).collect()
}

/// What is between the `(` at `open` and its matching `)`, skipping string literals.
fn balanced(code: &str, open: usize) -> &str {
    assert_eq!(&code[open..open + 1], "(", "expected ( at {open}");
    let mut depth = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in code[open..].char_indices() {
        match (in_string, c) {
            (true, _) if escaped => escaped = false,
            (true, '\\') => escaped = true,
            (true, '"') => in_string = false,
            (true, _) => {}
            (false, '"') => in_string = true,
            (false, '(') => depth += 1,
            (false, ')') => {
                depth -= 1;
                if depth == 0 {
                    return &code[open + 1..open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses from {open}")
}

/// The first string literal's content.
fn first_string(text: &str) -> Option<String> {
    let start = text.find('"')? + 1;
    let end = start + text[start..].find('"')?;
    Some(text[start..end].to_owned())
}

/// The HTTP methods of a plain `.route(path, get(a).post(b))`.
fn methods_in(args: &str) -> Vec<String> {
    let rest = args.split_once(',').map(|(_, rest)| rest).unwrap_or_default();
    ["get", "post", "put", "delete", "patch", "head", "options", "trace", "any"]
        .into_iter()
        .filter(|m| {
            rest.match_indices(&format!("{m}(")).any(|(i, _)| i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
        .map(str::to_uppercase)
        .collect()
}

/// `code` without comments (string and char literals kept as they are).
fn strip_comments(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '"' => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                out.extend(&chars[start..=i.min(chars.len() - 1)]);
            }
            // A char literal ('x', '\n', '"'); a lifetime has no closing quote.
            '\'' if chars.get(i + 2) == Some(&'\'') || chars.get(i + 1) == Some(&'\\') => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                out.extend(&chars[start..=i.min(chars.len() - 1)]);
            }
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// The registrations as `(METHOD, path)`.
pub fn routes(registrations: &[Registration]) -> BTreeSet<(String, String)> {
    registrations.iter().map(|r| (r.method.clone(), r.path.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_finds_plain_routes_aliases_and_annotated_handlers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.rs"),
            r#"
            // .route("/commented", get(x))
            /// Docs with a `.route("/in-doc", get(y))`.
            #[utoipa::path(get, path = "/b/{id}", description = "a ) in a string")]
            async fn b() {}
            #[utoipa::path(put, path = "/c")]
            async fn c() {}
            fn router() -> R {
                R::new()
                    .routes(also_at(routes!(b), "/b/{id}/"))
                    .routes(routes!(self::c))
                    .route("/plain", get(h).post(k))
                    .nest_service("/static", ServeDir::new("x"))
            }
            "#,
        )
        .unwrap();
        let found = routes(&registrations(dir.path()));
        let expected: BTreeSet<_> =
            [("GET", "/b/{id}"), ("GET", "/b/{id}/"), ("PUT", "/c"), ("GET", "/plain"), ("POST", "/plain"), ("ANY", "/static")]
                .into_iter()
                .map(|(m, p)| (m.to_owned(), p.to_owned()))
                .collect();
        assert_eq!(found, expected);
        let aliases: Vec<_> = registrations(dir.path()).into_iter().filter_map(|r| Some((r.path, r.alias_of?))).collect();
        assert_eq!(aliases, [("/b/{id}/".to_owned(), "/b/{id}".to_owned())]);
    }
}
