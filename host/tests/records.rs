//! Every record the reference run holds, damaged in every way its shape
//! allows, either renders (in every format, and its plot) or is refused on
//! load with one reason: never a panic. The damage is systematic rather
//! than random, so a failure names the same case on every machine: each
//! array emptied, cut to one element and cut by one, and each kind of
//! number set to zero, a negative and an absurdly large value.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

use host::record::Record;
use host::report::{self, Format};
use serde_json::Value;

/// The reference run's records: every JSON file but the manifest.
fn records() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/h200");
    let mut records: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("manifest.json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), serde_json::from_str(&text).unwrap())
        })
        .collect();
    records.sort_by(|a, b| a.0.cmp(&b.0));
    records
}

/// A place in a record: the keys and indices from its root.
type Place = Vec<Step>;

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// The first place of each shape in `value` (indices past the first are
/// the same shape again), for arrays and for numbers.
fn places(value: &Value, here: &mut Place, arrays: &mut Vec<Place>, numbers: &mut Vec<Place>) {
    match value {
        Value::Array(items) => {
            arrays.push(here.clone());
            if let Some(first) = items.first() {
                here.push(Step::Index(0));
                places(first, here, arrays, numbers);
                here.pop();
            }
        }
        Value::Object(fields) => {
            for (key, field) in fields {
                here.push(Step::Key(key.clone()));
                places(field, here, arrays, numbers);
                here.pop();
            }
        }
        Value::Number(_) => numbers.push(here.clone()),
        _ => {}
    }
}

/// The value at `place` in `root`.
fn at<'v>(root: &'v mut Value, place: &[Step]) -> &'v mut Value {
    place.iter().fold(root, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// Every damaged copy of `record`, each with what was done to it.
fn damaged(record: &Value) -> Vec<(String, Value)> {
    let (mut arrays, mut numbers) = (Vec::new(), Vec::new());
    places(record, &mut Vec::new(), &mut arrays, &mut numbers);
    let mut copies = Vec::new();
    for place in arrays {
        let len = at(&mut record.clone(), &place).as_array().map_or(0, Vec::len);
        for keep in [0, 1, len.saturating_sub(1)] {
            if keep >= len {
                continue;
            }
            let mut copy = record.clone();
            if let Some(items) = at(&mut copy, &place).as_array_mut() {
                items.truncate(keep);
            }
            copies.push((format!("{place:?} cut to {keep}"), copy));
        }
    }
    for place in numbers {
        for extreme in [serde_json::json!(0), serde_json::json!(-1), serde_json::json!(1e39)] {
            let mut copy = record.clone();
            *at(&mut copy, &place) = extreme.clone();
            copies.push((format!("{place:?} set to {extreme}"), copy));
        }
    }
    copies
}

#[test]
fn a_damaged_record_renders_or_is_refused_never_a_panic() {
    let started = Instant::now();
    let mut panics = Vec::new();
    let mut cases = 0;
    // The panics are caught and counted; their messages would bury the
    // report.
    std::panic::set_hook(Box::new(|_| {}));
    for (file, record) in records() {
        for (what, copy) in damaged(&record) {
            cases += 1;
            let text = copy.to_string();
            let rendered = catch_unwind(AssertUnwindSafe(|| {
                let Ok(record) = Record::from_json(&text) else { return };
                for format in [Format::Table, Format::Markdown, Format::Csv, Format::Json] {
                    let _ = report::export(&record, format);
                }
                let _ = report::plot::svg(&record);
            }));
            if let Err(panic) = rendered {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                panics.push(format!("{file}: {what}: {message}"));
            }
        }
    }
    let _ = std::panic::take_hook();
    println!("{cases} damaged records in {:.1} s", started.elapsed().as_secs_f64());
    assert!(panics.is_empty(), "{} of {cases} damaged records panicked:\n{}", panics.len(), panics.join("\n"));
    assert!(started.elapsed() < Duration::from_secs(60), "the damage took longer than a minute to render");
}
