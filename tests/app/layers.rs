//! The import graph of `src/`: each top-level module imports only those below it (db never
//! imports game, game never the wire types nor the web), the rooms of `game` only those
//! before them, and no two modules of `web` import each other. Read from the source text: a
//! `crate::…` or `super::…` path outside comments and test modules is an import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level modules, lowest first: a module may name only those before it.
const LAYERS: &[&str] = &[
    "ids",
    "i18n",
    "said",
    "webpush",
    "rules",
    "schedule",
    "config",
    "outgoing",
    "db",
    "game",
    "mail",
    "wire",
    "delivery",
    "scheduler",
    "web",
    "commands",
];

/// The rooms of `game`, in the order they may depend on one another; `error` and `workers`
/// are everyone's.
const ROOMS: &[&str] = &[
    "error", "workers", "accounts", "news", "maps", "time", "play", "gm", "talk", "campaign",
    "bots", "screens",
];

/// (module path of each file, its text without comments and test modules).
fn sources() -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    let root = stack[0].clone();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&root).unwrap().with_extension("");
            let mut module: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "mod") {
                module.pop();
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let text = text.split("#[cfg(test)]").next().unwrap();
            let code: String = text
                .lines()
                .map(|l| l.split("//").next().unwrap())
                .collect::<Vec<_>>()
                .join("\n");
            out.push((module, code));
        }
    }
    out
}

/// The modules a file names: `crate::a::b…` as [a, b], `super::x` from its own place (the
/// parent of `a/b.rs` and of `a/b/mod.rs` alike is `a`).
fn named(module: &[String], code: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|p| {
                p.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|p| !p.is_empty())
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        out.push(ident(&code[i + 7..]));
    }
    for (i, _) in code.match_indices("super::") {
        if code[..i].ends_with("::") {
            continue;
        }
        let mut base: Vec<String> = module[..module.len().saturating_sub(1)].to_vec();
        base.extend(ident(&code[i + 7..]));
        out.push(base);
    }
    out
}

fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, code) in sources() {
        if module.is_empty() || module == ["main"] || module == ["lib"] {
            continue;
        }
        for n in named(&module, &code) {
            g.entry(module.clone()).or_default().insert(n);
        }
    }
    g
}

#[test]
fn each_layer_imports_only_those_below_it() {
    let mut wrong = Vec::new();
    for (from, names) in graph() {
        let Some(rank) = LAYERS.iter().position(|l| *l == from[0]) else {
            panic!("src/{} is in no layer of tests/app/layers.rs", from[0]);
        };
        for n in names {
            let Some(first) = n.first() else { continue };
            if let Some(r) = LAYERS.iter().position(|l| l == first) {
                if r > rank {
                    wrong.push(format!("{} -> {}", from.join("::"), n.join("::")));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "arrows back up: {wrong:#?}");
}

#[test]
fn the_rooms_of_game_depend_only_on_those_before_them() {
    let mut wrong = Vec::new();
    for (from, names) in graph() {
        if from[0] != "game" || from.len() < 2 {
            continue;
        }
        let rank = ROOMS
            .iter()
            .position(|r| *r == from[1])
            .unwrap_or_else(|| panic!("game::{} is in no room of tests/app/layers.rs", from[1]));
        for n in names {
            if n.first().is_some_and(|f| f == "game") && n.len() > 1 {
                if let Some(r) = ROOMS.iter().position(|x| *x == n[1]) {
                    if r > rank {
                        wrong.push(format!("{} -> {}", from.join("::"), n.join("::")));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn no_two_modules_of_web_import_each_other() {
    let mut edges: BTreeSet<(String, String)> = BTreeSet::new();
    for (from, names) in graph() {
        if from[0] != "web" || from.len() < 2 {
            continue;
        }
        for n in names {
            if n.first().is_some_and(|f| f == "web") && n.len() > 1 && n[1] != from[1] {
                edges.insert((from[1].clone(), n[1].clone()));
            }
        }
    }
    // No circle at all: take away, again and again, the modules with no arrow in or no arrow
    // out; what is left is the circles.
    let mut left = edges.clone();
    loop {
        let before = left.len();
        let heads: BTreeSet<String> = left.iter().map(|(a, _)| a.clone()).collect();
        let tails: BTreeSet<String> = left.iter().map(|(_, b)| b.clone()).collect();
        left.retain(|(a, b)| tails.contains(a) && heads.contains(b));
        if left.len() == before {
            break;
        }
    }
    assert!(left.is_empty(), "a circle among web's modules: {left:?}");
    assert!(edges.contains(&("pages".into(), "render".into())));
}
