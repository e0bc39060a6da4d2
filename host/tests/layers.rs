//! The host's layers, checked on its source: `main → app → render → record/
//! → commands/<name>/ → shared services → gpu/ → error`, with `report/` a
//! leaf that sees no GPU. The test reads every file of `host/src`, draws the
//! file-level import graph from its `crate::`, `super::`, `self::` and `use`
//! paths (comments, string literals and `#[cfg(test)]` code left out; an
//! item a `mod.rs` brings in from its child leads to that child), and fails
//! on an edge that points the wrong way or on a circle through more than a
//! module file and one of its own children.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A source file, by its path under `host/src`, and the module path it
/// defines (`commands/sweep/mod.rs` → `["commands", "sweep"]`).
#[derive(Debug)]
struct File {
    module: Vec<String>,
    code: String,
}

/// The lib crate's files, keyed by path under `host/src`, without `main.rs`
/// (another crate, which reaches the library as `host::`) and without the
/// files that a `#[cfg(test)] mod name;` declares.
fn files() -> BTreeMap<String, File> {
    files_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// The library files of the crate whose sources are `src`, as [`files`]
/// reads the host's.
fn files_of(src: &Path) -> BTreeMap<String, File> {
    let src = src.to_path_buf();
    let mut paths = Vec::new();
    walk(&src, &mut paths);
    let mut files: BTreeMap<String, File> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            let text = fs::read_to_string(p).unwrap();
            (rel.clone(), File { module: module_of(&rel), code: without_test_code(&strip(&text)) })
        })
        .filter(|(rel, _)| rel != "main.rs")
        .collect();
    // A file declared by `#[cfg(test)] mod name;` is test code, and so is
    // everything under it.
    let raw: BTreeMap<String, String> = paths
        .iter()
        .map(|p| {
            (p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/"), strip(&fs::read_to_string(p).unwrap()))
        })
        .collect();
    let mut test_modules = BTreeSet::new();
    for (rel, text) in &raw {
        for name in test_module_declarations(text) {
            let mut module = module_of(rel);
            module.push(name);
            test_modules.insert(module);
        }
    }
    files.retain(|_, f| !test_modules.iter().any(|t| f.module.starts_with(t)));
    files
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// `text` with comments and the contents of string and character literals
/// blanked out, so that neither a doc link nor a message counts as an
/// import.
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(' ');
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !is_ident(b[i - 1])) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                i += 2 + hashes;
                while i < b.len() && !b[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            // A character literal ('x', '\n', '"'); a lifetime ('a) has no
            // closing quote right after its first character.
            b'\'' if b.get(i + 1) == Some(&b'\\') || b.get(i + 2) == Some(&b'\'') => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("' '");
            }
            c => {
                // Copy one whole UTF-8 character.
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&text[i..i + len]);
                let _ = c;
                i += len;
            }
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `code` without the items under a `#[cfg(test)]` attribute: a block-bodied
/// item up to its closing brace, any other up to its semicolon.
fn without_test_code(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (k, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The names of `#[cfg(test)] mod name;` declarations in `code`.
fn test_module_declarations(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        rest = &rest[at + "#[cfg(test)]".len()..];
        let words: Vec<&str> = rest.split_whitespace().take(2).collect();
        if let ["mod", name] = words[..]
            && let Some(name) = name.strip_suffix(';')
        {
            names.push(name.to_owned());
        }
    }
    names
}

/// Every module path that `file` names: the paths of its `use` declarations
/// (brace groups expanded; a first segment that is neither `crate`, `super`
/// nor `self` is read as a child of the file's module), and every
/// `crate::…`, `super::…` or `self::…` path in its code.
fn paths(file: &File) -> Vec<Vec<String>> {
    let code = &file.code;
    let mut found = Vec::new();
    let tokens = tokenize(code);
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" && (i == 0 || tokens[i - 1] != "::") {
            let end = tokens[i..].iter().position(|t| t == ";").map_or(tokens.len(), |p| i + p);
            expand(&tokens[i + 1..end], &[], &mut found);
            i = end;
            continue;
        }
        if matches!(tokens[i].as_str(), "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && (i == 0 || tokens[i - 1] != "::")
        {
            let mut path = vec![tokens[i].clone()];
            let mut k = i + 1;
            while tokens.get(k).is_some_and(|t| t == "::") && tokens.get(k + 1).is_some_and(|t| is_word(t)) {
                path.push(tokens[k + 1].clone());
                k += 2;
            }
            found.push(path);
            i = k;
            continue;
        }
        i += 1;
    }
    found.into_iter().filter_map(|p| absolute(&file.module, &p)).collect()
}

fn is_word(t: &str) -> bool {
    t.bytes().all(is_ident) && !t.is_empty()
}

fn tokenize(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            tokens.push(code[start..i].to_owned());
        } else if b[i..].starts_with(b"::") {
            tokens.push("::".to_owned());
            i += 2;
        } else if b[i].is_ascii_whitespace() {
            i += 1;
        } else {
            tokens.push((b[i] as char).to_string());
            i += 1;
        }
    }
    tokens
}

/// The paths of a `use` tree (the tokens after `use`), each prefixed by
/// `prefix`.
fn expand(tree: &[String], prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tree.len() {
        match tree[i].as_str() {
            "{" => {
                // Split the group at its top-level commas.
                let mut depth = 0;
                let mut start = i + 1;
                for k in i..tree.len() {
                    match tree[k].as_str() {
                        "{" => depth += 1,
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                expand(&tree[start..k], &path, out);
                                return;
                            }
                        }
                        "," if depth == 1 => {
                            expand(&tree[start..k], &path, out);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            "::" => {}
            "as" => break,
            "*" => break,
            word if is_word(word) => path.push(word.to_owned()),
            _ => {}
        }
        i += 1;
    }
    if path.len() > prefix.len() || !prefix.is_empty() {
        out.push(path);
    }
}

/// `path` as written in the module `module`, as a path from the crate root;
/// `None` for a path into another crate.
fn absolute(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut segments = path.iter().peekable();
    let mut at: Vec<String> = match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segments.next();
            Vec::new()
        }
        Some("super" | "self") => module.to_vec(),
        // A `use` of a child module by its bare name, as `pub use args::X;`.
        Some(_) => {
            let mut child = module.to_vec();
            child.push(path[0].clone());
            child
        }
        None => return None,
    };
    if !matches!(path[0].as_str(), "crate" | "super" | "self") {
        segments.next();
    }
    for s in segments {
        match s.as_str() {
            "super" => {
                at.pop();
            }
            "self" => {}
            word => at.push(word.to_owned()),
        }
    }
    Some(at)
}

/// The file-level graph: for each file, the files it imports from. A path
/// to an item that a `mod.rs` brings in from one of its children (`use
/// device::DeviceInfo;` in `gpu/mod.rs`, read by `crate::device::DeviceInfo`)
/// leads to that child, not to the `mod.rs`: the re-export is a door, and the
/// edge goes to the room behind it.
fn graph(files: &BTreeMap<String, File>) -> BTreeMap<&str, BTreeSet<&str>> {
    let by_module: BTreeMap<&[String], &str> =
        files.iter().map(|(rel, f)| (f.module.as_slice(), rel.as_str())).collect();
    let file_of = |path: &[String]| (1..=path.len()).rev().find_map(|k| by_module.get(&path[..k]).map(|&f| (f, k)));
    // Each item a module file brings in from a file below it: the item's
    // path through the module, and the file that defines it.
    let mut doors: BTreeMap<Vec<String>, &str> = BTreeMap::new();
    for file in files.values() {
        for path in paths(file) {
            if path.len() > file.module.len() + 1
                && path.starts_with(&file.module)
                && let Some((inner, _)) = file_of(&path[..path.len() - 1])
                && files[inner].module.len() > file.module.len()
            {
                let mut through = file.module.clone();
                through.push(path.last().unwrap().clone());
                doors.insert(through, inner);
            }
        }
    }
    files
        .iter()
        .map(|(rel, file)| {
            let targets = paths(file)
                .into_iter()
                .filter_map(|path| {
                    // The longest prefix of the path that is a file, or the
                    // file behind the door the path goes through; the crate
                    // root (`lib.rs`) declares modules and imports nothing.
                    let (target, k) = file_of(&path)?;
                    Some(path.get(..k + 1).and_then(|door| doors.get(door).copied()).unwrap_or(target))
                })
                .filter(|target| *target != rel.as_str())
                .collect();
            (rel.as_str(), targets)
        })
        .collect()
}

/// Whether `a` and `b` are a module file and one of its own files: the one
/// pair that may name each other (a parent declares its child, and the
/// child may use what the parent holds).
fn parent_and_child(files: &BTreeMap<String, File>, a: &str, b: &str) -> bool {
    let (x, y) = (&files[a].module, &files[b].module);
    let below = |p: &Vec<String>, c: &Vec<String>| c.len() == p.len() + 1 && c.starts_with(p);
    below(x, y) || below(y, x)
}

/// The circles in `graph` that pass through more than a module file and one
/// of its children: two files that name each other and are not parent and
/// child, or three files or more around. One circle per set of files.
fn forbidden_circles<'a>(
    files: &BTreeMap<String, File>,
    graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
) -> Vec<Vec<&'a str>> {
    let mut found: BTreeMap<BTreeSet<&str>, Vec<&str>> = BTreeMap::new();
    // A path from `from` to `to` that never enters `avoid`, as its files.
    let path = |from: &'a str, to: &'a str, avoid: &[&str]| -> Option<Vec<&'a str>> {
        let mut came: BTreeMap<&str, &str> = BTreeMap::from([(from, from)]);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            if at == to {
                let mut out = vec![to];
                while *out.last().unwrap() != from {
                    out.push(came[out.last().unwrap()]);
                }
                out.reverse();
                return Some(out);
            }
            for &next in &graph[at] {
                if !avoid.contains(&next) && !came.contains_key(next) {
                    came.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
        None
    };
    for (&s, out) in graph {
        for &a in out {
            if graph[a].contains(s) && !parent_and_child(files, s, a) {
                found.entry(BTreeSet::from([s, a])).or_insert_with(|| vec![s, a, s]);
            }
            // A circle s → a → x → … → s of three files or more.
            for &x in &graph[a] {
                if x != s
                    && let Some(rest) = path(x, s, &[a])
                {
                    let circle = [vec![s, a], rest].concat();
                    found.entry(circle.iter().copied().collect()).or_insert(circle);
                }
            }
        }
    }
    found.into_values().collect()
}

/// A circle in `graph`, as the files around it, if there is one.
fn circle<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Option<Vec<&'a str>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        marks: &mut BTreeMap<&'a str, Mark>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<&'a str>> {
        marks.insert(node, Mark::Open);
        stack.push(node);
        for &next in &graph[node] {
            match marks[next] {
                Mark::Open => {
                    let from = stack.iter().position(|&n| n == next).unwrap();
                    let mut found = stack[from..].to_vec();
                    found.push(next);
                    return Some(found);
                }
                Mark::New => {
                    if let Some(found) = visit(next, graph, marks, stack) {
                        return Some(found);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node, Mark::Done);
        None
    }
    let mut marks: BTreeMap<&str, Mark> = graph.keys().map(|&k| (k, Mark::New)).collect();
    for &node in graph.keys() {
        if marks[node] == Mark::New
            && let Some(found) = visit(node, graph, &mut marks, &mut Vec::new())
        {
            return Some(found);
        }
    }
    None
}

/// The top-level part a file belongs to: `commands/sweep` for a command's
/// files, the first folder or file name otherwise.
fn part(rel: &str) -> String {
    let segments: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    match segments.as_slice() {
        ["commands", name, _, ..] => format!("commands/{name}"),
        [first, ..] => (*first).to_owned(),
        [] => String::new(),
    }
}

#[test]
fn the_host_has_no_import_circle() {
    let files = files();
    assert!(files.len() > 50, "read only {} files of host/src", files.len());
    let graph = graph(&files);
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(edges > 100, "found only {edges} imports: the parser is broken");
    let circles: Vec<String> = forbidden_circles(&files, &graph).iter().map(|c| c.join(" → ")).collect();
    assert!(
        circles.is_empty(),
        "import circles in host/src through more than a module and one of its children (move what they \
         share into a file of its own):\n{}",
        circles.join("\n")
    );
}

#[test]
fn layout_memory_model_and_xtask_have_no_import_circle_either() {
    // The same rule, for the crates beside the host whose files import each
    // other.
    for name in ["memory-model", "xtask", "layout"] {
        let files = files_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name).join("src"));
        assert!(files.len() > 5, "read only {} files of {name}/src", files.len());
        let graph = graph(&files);
        let circles: Vec<String> = forbidden_circles(&files, &graph).iter().map(|c| c.join(" → ")).collect();
        assert!(circles.is_empty(), "import circles in {name}/src:\n{}", circles.join("\n"));
    }
}

#[test]
fn report_knows_no_command_and_no_gpu() {
    let files = files();
    for (from, targets) in graph(&files) {
        if part(from) != "report" {
            continue;
        }
        for to in targets {
            let first = part(to).split('/').next().unwrap().to_owned();
            let up = ["commands", "record", "render", "app", "cli", "options", "sums", "litmus", "pitfalls"]
                .contains(&first.as_str());
            assert!(!up, "report/ imports from above it: {from} → {to}");
            // What the exporters print of a GPU is plain data (`device.rs`,
            // `launch.rs`), never the driver's layer.
            assert!(first != "gpu", "report/ imports from gpu/: {from} → {to}; exporters see no GPU");
        }
    }
}

#[test]
fn a_record_sits_above_every_command() {
    // `record/` names every command's report, so no command may name a
    // record: `render`, which reads one, sits beside `app.rs`.
    let files = files();
    for (from, targets) in graph(&files) {
        if !part(from).starts_with("commands/") && part(from) != "commands" {
            continue;
        }
        for to in targets {
            assert!(
                !["record", "render"].contains(&part(to).as_str()),
                "a command imports from above it: {from} → {to}"
            );
        }
    }
}

#[test]
fn commands_do_not_import_each_other() {
    let files = files();
    for (from, targets) in graph(&files) {
        let here = part(from);
        if !here.starts_with("commands/") {
            continue;
        }
        for to in targets {
            let there = part(to);
            assert!(
                !there.starts_with("commands/") || there == here,
                "a command imports another: {from} → {to}; move what they share below the commands"
            );
        }
    }
}

#[test]
fn only_app_reads_the_command_line_definition() {
    let files = files();
    for (from, targets) in graph(&files) {
        assert!(!targets.contains("cli.rs") || from == "app.rs", "{from} imports cli.rs, which only app.rs may");
    }
}

#[test]
fn only_gpu_names_the_driver_crate() {
    for (rel, file) in files() {
        if part(&rel) == "gpu" {
            continue;
        }
        let named = tokenize(&file.code).iter().any(|t| t == "cudarc");
        assert!(!named, "{rel} names cudarc; only gpu/ talks to the driver");
    }
}

#[test]
fn the_parser_sees_the_imports_it_must() {
    let file = File {
        module: vec!["commands".into(), "sweep".into()],
        code: strip(
            "use super::{Report, x::{Y, Z as W}};\nuse crate::a::b;\npub use args::SweepArgs;\n\
             // use crate::comment::Gone;\nfn f() { let s = \"crate::text::Gone\"; crate::gpu::launch(); }\n",
        ),
    };
    let found: BTreeSet<String> = paths(&file).into_iter().map(|p| p.join("::")).collect();
    let expected: BTreeSet<String> = [
        "commands::Report",
        "commands::x::Y",
        "commands::x::Z",
        "a::b",
        "commands::sweep::args::SweepArgs",
        "gpu::launch",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(found, expected);
    let tests = without_test_code(&strip(
        "use crate::a;\n#[cfg(test)]\nmod tests { use crate::b; }\n#[cfg(test)]\nuse crate::c;\n",
    ));
    assert!(tests.contains("crate::a") && !tests.contains("crate::b") && !tests.contains("crate::c"), "{tests}");
}

#[test]
fn a_circle_is_found() {
    let graph: BTreeMap<&str, BTreeSet<&str>> = [
        ("a.rs", BTreeSet::from(["b.rs"])),
        ("b.rs", BTreeSet::from(["c.rs"])),
        ("c.rs", BTreeSet::from(["a.rs"])),
        ("d.rs", BTreeSet::new()),
    ]
    .into_iter()
    .collect();
    assert_eq!(circle(&graph).map(|c| c.len()), Some(4));
}
