//! Helpers shared by the lab's top-level tests: reading one kernel's body out
//! of a PTX module.

/// The text of `.entry name(...) { ... }` in `ptx`, up to the end of its body,
/// or `None` if the module has no such entry.
pub fn entry_body<'a>(ptx: &'a str, name: &str) -> Option<&'a str> {
    let start = ptx.find(&format!(".entry {name}("))?;
    let rest = &ptx[start..];
    // LLVM closes every function with a line holding only `}`.
    let end = rest.find("\n}").map_or(rest.len(), |i| i + 2);
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_one_entry_and_stops_at_its_brace() {
        let ptx = ".visible .entry a(\n)\n{\n\tret;\n}\n.visible .entry b(\n)\n{\n\tbar.sync 0;\n}\n";
        assert_eq!(entry_body(ptx, "a"), Some(".entry a(\n)\n{\n\tret;\n}"));
        assert!(entry_body(ptx, "b").unwrap().contains("bar.sync"));
        assert_eq!(entry_body(ptx, "c"), None);
    }
}
