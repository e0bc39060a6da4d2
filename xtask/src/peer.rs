//! The lab beside cuda-litmus in one device call per GPU: the litmus
//! chapter's table of MP, WRC, IRIW, RWC, ISA2 and 2+2W (`relaxed` at `.gpu`,
//! every thread in a block of its own), weak outcomes per million instances.
//!
//! Each GPU has a folder under [`PEER`] holding what one call printed:
//! `peer.txt` (a header of `# key: value` lines, then each cuda-litmus run
//! under `## TEST round N`, as its runner prints it) and the lab's
//! `host litmus` records of the same six rows in four environments
//! ([`LAB`]). [`table`] is a pure function of what [`read`] finds.

use std::path::Path;

use lab_records::host::{LitmusRow, Record, Results};

use crate::Error;

/// The folders of the comparison, one per GPU, relative to the workspace
/// root.
pub const PEER: &str = "results/anchors/peer";

/// The lab's records in each folder and the column each heads.
pub const LAB: [(&str, &str); 4] = [
    ("lab-default.json", "lab, default"),
    ("lab-tuned-wrc-4.json", "lab, `tuned-wrc`, stride 4"),
    ("lab-tuned-wrc-8.json", "lab, `tuned-wrc`, stride 8"),
    ("lab-tuned.json", "lab, tuned on this GPU"),
];

/// The tests, as the lab's kernels and cuda-litmus's runners name them.
pub const TESTS: [(&str, &str, &str); 6] = [
    ("MP", "mp_relaxed_gpu", "mp"),
    ("WRC", "wrc_relaxed_gpu", "wrc"),
    ("IRIW", "iriw_relaxed_gpu", "iriw"),
    ("RWC", "rwc_relaxed_gpu", "rwc"),
    ("ISA2", "isa2_relaxed_gpu", "isa2"),
    ("2+2W", "2plus2w_relaxed_gpu", "2+2w"),
];

/// Weak outcomes out of instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Weak outcomes.
    pub weak: u64,
    /// Instances.
    pub instances: u64,
}

/// A call's header: its `# key: value` lines, in order.
pub type Header = Vec<(String, String)>;

/// One GPU's call.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The header's `key: value` lines (`gpu`, `driver`, `date`, …).
    pub header: Header,
    /// Per test of [`TESTS`], the lab's count in each environment of [`LAB`]
    /// (`None` where the record has no such row).
    pub lab: Vec<Vec<Option<Count>>>,
    /// Per test, cuda-litmus's runs in the order they ran.
    pub peer: Vec<Vec<Count>>,
}

impl Call {
    /// The header's value for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.header.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// The number after `label` on a line of `text`.
fn number_after(text: &str, label: &str) -> Option<u64> {
    text.lines().find_map(|l| l.trim().strip_prefix(label)?.trim().parse().ok())
}

/// Parses `peer.txt`: its header and, per test of [`TESTS`], each run's
/// weak and total behaviours (`Number of weak behaviors:`, `Total
/// behaviors:`). A run section without both numbers is an error naming it.
pub fn parse_peer(text: &str, file: &str) -> Result<(Header, Vec<Vec<Count>>), Error> {
    let header = text
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("# ")?.split_once(": "))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut peer = vec![Vec::new(); TESTS.len()];
    for section in text.split("\n## ").skip(1) {
        let (title, body) = section.split_once('\n').unwrap_or((section, ""));
        let test = title.split_whitespace().next().unwrap_or("");
        let Some(k) = TESTS.iter().position(|t| t.2 == test) else { continue };
        match (number_after(body, "Number of weak behaviors:"), number_after(body, "Total behaviors:")) {
            (Some(weak), Some(instances)) => peer[k].push(Count { weak, instances }),
            _ => return Err(Error(format!("{file}: `## {title}` has no weak and total behaviours"))),
        }
    }
    Ok((header, peer))
}

/// The weak outcomes and instances of the row `kernel` across blocks.
fn lab_count(rows: &[LitmusRow], kernel: &str, weak_bin: usize) -> Option<Count> {
    let row = rows.iter().find(|r| r.kernel == kernel && r.placement == "inter-block" && !r.sequential)?;
    Some(Count { weak: *row.counts.histogram.get(weak_bin)?, instances: row.counts.instances })
}

/// Reads one GPU's folder.
pub fn read_call(folder: &Path) -> Result<Call, Error> {
    let read = |name: &str| {
        let path = folder.join(name);
        std::fs::read_to_string(&path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))
    };
    let (header, peer) = parse_peer(&read("peer.txt")?, &folder.join("peer.txt").display().to_string())?;
    let mut lab = vec![Vec::new(); TESTS.len()];
    for (file, _) in LAB {
        let record: Record = serde_json::from_str(&read(file)?)
            .map_err(|e| Error(format!("{}: not a host record: {e}", folder.join(file).display())))?;
        let Results::Litmus(litmus) = record.results else {
            return Err(Error(format!("{}: not a `host litmus` record", folder.join(file).display())));
        };
        for (k, (_, kernel, _)) in TESTS.iter().enumerate() {
            let test = layout::litmus::Test::ALL.iter().find(|t| kernel.starts_with(&format!("{}_", t.key())));
            lab[k].push(test.and_then(|t| lab_count(&litmus.rows, kernel, t.weak() as usize)));
        }
    }
    Ok(Call { header, lab, peer })
}

/// Every GPU's call under `root`'s [`PEER`], in folder order.
pub fn read(root: &Path) -> Result<Vec<Call>, Error> {
    let dir = root.join(PEER);
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| Error(format!("cannot list {}: {e}", dir.display())))?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    folders.iter().map(|f| read_call(f)).collect()
}

/// `count` per million as the book's other litmus figures read.
fn per_million(count: Count) -> String {
    crate::book::litmus::weak_per_million(count.weak, count.instances)
}

/// The line naming one GPU's call.
pub fn caption(call: &Call) -> String {
    format!(
        "**{}**, driver {}, {}, one call:\n",
        call.get("gpu").unwrap_or("a GPU"),
        call.get("driver").unwrap_or("unknown"),
        call.get("date").and_then(|d| d.get(..10)).unwrap_or("undated"),
    )
}

/// One GPU's comparison: one row per test, the lab's environments and each
/// cuda-litmus run.
pub fn table(call: &Call) -> String {
    let runs = call.peer.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::from("| test |");
    for (_, heading) in LAB {
        out += &format!(" {heading} |");
    }
    for r in 0..runs {
        out += &format!(" cuda-litmus, run {} |", r + 1);
    }
    out += "\n|---|";
    out += &"---:|".repeat(LAB.len() + runs);
    out += "\n";
    for (k, (name, _, _)) in TESTS.iter().enumerate() {
        out += &format!("| {name} |");
        for cell in &call.lab[k] {
            out += &format!(" {} |", cell.map_or("not run".to_owned(), per_million));
        }
        for r in 0..runs {
            out += &format!(" {} |", call.peer[k].get(r).map_or("-".to_owned(), |c| per_million(*c)));
        }
        out += "\n";
    }
    out
}

/// Which tests the lab, tuned on the GPU, showed at least as often per
/// instance as cuda-litmus's better run did, and which it did not.
fn ahead(call: &Call) -> (Vec<&'static str>, Vec<&'static str>) {
    let rate = |c: &Count| if c.instances == 0 { 0.0 } else { c.weak as f64 / c.instances as f64 };
    let tuned = LAB.len() - 1;
    let mut split = (Vec::new(), Vec::new());
    for (k, (name, _, _)) in TESTS.iter().enumerate() {
        let lab = call.lab[k][tuned].map_or(0.0, |c| rate(&c));
        let peer = call.peer[k].iter().map(rate).fold(0.0, f64::max);
        if lab >= peer && call.lab[k][tuned].is_some() { split.0.push(*name) } else { split.1.push(*name) }
    }
    split
}

/// One sentence for every GPU: on how many of the six tests the lab, tuned
/// on that GPU, showed the weak outcome at least as often per instance as
/// cuda-litmus's better run, and which tests trail. Empty without a call.
pub fn summary(calls: &[Call]) -> String {
    let clauses: Vec<String> = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let (ahead, behind) = ahead(call);
            let count = if behind.is_empty() { "all six".to_owned() } else { format!("{} of the six", ahead.len()) };
            let tests = if i == 0 { " tests" } else { "" };
            let trail = match behind.split_last() {
                None => String::new(),
                Some((last, [])) => format!(" (it trails on {last})"),
                Some((last, rest)) => format!(" (it trails on {} and {last})", rest.join(", ")),
            };
            format!("on {count}{tests} on the {}{trail}", call.get("gpu").unwrap_or("GPU"))
        })
        .collect();
    let Some((last, rest)) = clauses.split_last() else { return String::new() };
    let clauses = if rest.is_empty() { last.clone() } else { format!("{}, and {last}", rest.join(", ")) };
    format!(
        "Tuned on its own GPU, the lab saw each test's weak outcome at least as often per instance as \
         cuda-litmus's better run in the same call {clauses}.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PEER_TXT: &str = "# gpu: NVIDIA H100 80GB HBM3\n# driver: 580.159.04\n# date: 2026-12-06T23:30Z\n\
        ## mp round 1\nTime taken: 1 seconds\nTotal behaviors: 12646400\nNumber of weak behaviors: 0\nexit 0\n\
        ## iriw round 1\nTotal behaviors: 12646400\nNumber of weak behaviors: 1075\nexit 0\n\
        ## iriw round 2\nTotal behaviors: 12646400\nNumber of weak behaviors: 1365\nexit 0\n";

    #[test]
    fn the_peers_runs_are_read_in_order_and_a_broken_one_is_named() {
        let (header, peer) = parse_peer(PEER_TXT, "peer.txt").unwrap();
        assert_eq!(header[0], ("gpu".to_owned(), "NVIDIA H100 80GB HBM3".to_owned()));
        assert_eq!(peer[0], vec![Count { weak: 0, instances: 12_646_400 }]);
        assert_eq!(peer[2].iter().map(|c| c.weak).collect::<Vec<_>>(), vec![1075, 1365]);
        let broken = PEER_TXT.replace("Number of weak behaviors: 1365", "Segmentation fault");
        let e = parse_peer(&broken, "peer.txt").unwrap_err().to_string();
        assert!(e.contains("`## iriw round 2` has no weak and total behaviours"), "{e}");
    }

    #[test]
    fn a_zero_shows_its_bound_and_a_missing_row_says_so() {
        let (header, peer) = parse_peer(PEER_TXT, "peer.txt").unwrap();
        let mut lab = vec![vec![None; LAB.len()]; TESTS.len()];
        lab[2][3] = Some(Count { weak: 2_000, instances: 20_000_000 });
        let call = Call { header, lab, peer };
        assert_eq!(caption(&call), "**NVIDIA H100 80GB HBM3**, driver 580.159.04, 2026-12-06, one call:\n");
        let text = table(&call);
        assert!(text.contains("| MP | not run | not run | not run | not run | 0 (< 0.237) | - |"), "{text}");
        assert!(text.contains("| IRIW | not run | not run | not run | 100 | 85.0 | 108 |"), "{text}");
        let (header, peer) = parse_peer(PEER_TXT, "peer.txt").unwrap();
        let mut lab = vec![vec![None; LAB.len()]; TESTS.len()];
        lab[0][3] = Some(Count { weak: 1, instances: 1_000_000 });
        lab[2][3] = Some(Count { weak: 2_000, instances: 20_000_000 });
        let call = Call { header, lab, peer };
        let sentence = summary(std::slice::from_ref(&call));
        assert!(sentence.contains("on 1 of the six tests on the NVIDIA H100 80GB HBM3"), "{sentence}");
        assert!(sentence.ends_with("(it trails on WRC, IRIW, RWC, ISA2 and 2+2W).\n"), "{sentence}");
        // Two GPUs make one sentence, the second clause after the first.
        let mut second = call.clone();
        second.header[0].1 = "NVIDIA H200".to_owned();
        second.lab = vec![vec![Some(Count { weak: 1, instances: 1 }); LAB.len()]; TESTS.len()];
        let sentence = summary(&[call, second]);
        assert_eq!(sentence.matches('.').count(), 1, "{sentence}");
        assert!(sentence.ends_with("2+2W), and on all six on the NVIDIA H200.\n"), "{sentence}");
        assert_eq!(summary(&[]), "");
    }

    #[test]
    fn every_test_names_a_kernel_of_the_suite() {
        for (_, kernel, _) in TESTS {
            let symbol = format!("litmus_{kernel}");
            assert!(layout::litmus::KERNELS.iter().any(|k| k.entry.symbol == symbol), "{symbol}");
        }
    }
}
