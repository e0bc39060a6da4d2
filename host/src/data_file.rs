//! A user's own array, read and checked before any GPU is opened: a 1-D
//! little-endian `float32` `.npy` file (NumPy's format, read with `npyz`),
//! or raw little-endian `f32` words in a `.f32` file.
//!
//! Every problem is one line naming the file and what is wrong with it, so a
//! user sees it at once, on any machine.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use npyz::{DType, NpyFile, NpyHeader};

/// The most floats a file may hold: the largest input every sum kernel of the
/// lab takes (the CLI's limit for every size, 2^29 floats, 2 GiB).
pub const MAX_FLOATS: usize = crate::options::MAX_COUNT;

/// Why a file cannot be summed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFileError(pub String);

impl std::fmt::Display for DataFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The floats of `path`: `.npy` by its magic bytes, or raw `f32` if the name
/// ends in `.f32`.
pub fn load(path: &Path) -> Result<Vec<f32>, DataFileError> {
    let problem = |what: String| DataFileError(what);
    let file = File::open(path).map_err(|e| problem(format!("cannot open: {e}")))?;
    let size = file.metadata().map_err(|e| problem(format!("cannot read its size: {e}")))?.len();
    let mut reader = BufReader::new(file);
    let values =
        if path.extension().is_some_and(|e| e == "f32") { raw(&mut reader, size)? } else { npy(reader, size)? };
    if values.is_empty() {
        return Err(problem("the array is empty: there is nothing to sum".to_owned()));
    }
    Ok(values)
}

/// Raw little-endian `f32` words.
fn raw(reader: &mut impl Read, size: u64) -> Result<Vec<f32>, DataFileError> {
    if !size.is_multiple_of(4) {
        return Err(DataFileError(format!("{size} bytes is not a whole number of 4-byte floats")));
    }
    check_count(size / 4)?;
    let mut bytes = Vec::with_capacity(size as usize);
    reader.read_to_end(&mut bytes).map_err(|e| DataFileError(format!("cannot read: {e}")))?;
    Ok(bytes.chunks_exact(4).map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect())
}

/// A reader that counts the bytes read through it.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// A NumPy `.npy` array of `size` bytes in all, which must be 1-D
/// little-endian `float32` and end where its array ends.
fn npy(reader: impl Read, size: u64) -> Result<Vec<f32>, DataFileError> {
    let mut reader = Counted { inner: reader, bytes: 0 };
    let header = NpyHeader::from_reader(&mut reader).map_err(|e| {
        DataFileError(format!("not a .npy file ({e}); give a .npy array or raw float32 words in a .f32 file"))
    })?;
    // `npyz` reads the header with `read_exact`, so the bytes counted so far
    // are the header's and the array starts right after them.
    let header_bytes = reader.bytes;
    let npy = NpyFile::with_header(header, reader);
    let dtype = match npy.dtype() {
        DType::Plain(type_str) => type_str.to_string(),
        other => format!("{} (a structured type)", other.descr()),
    };
    if dtype != "<f4" {
        let hint = match dtype.as_str() {
            "<f8" | ">f8" => "float64: convert with a.astype(np.float32)",
            "<f2" | ">f2" => "float16: convert with a.astype(np.float32)",
            ">f4" => "big-endian float32: convert with a.astype('<f4')",
            _ => "not float32",
        };
        return Err(DataFileError(format!(
            "the array's dtype is {dtype}, {hint}; the lab sums little-endian float32 (<f4)"
        )));
    }
    let shape = npy.shape().to_vec();
    if shape.len() != 1 {
        let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
        return Err(DataFileError(format!(
            "the array has shape ({}), {} dimensions; the lab sums a 1-D array (use a.ravel())",
            dims.join(", "),
            shape.len()
        )));
    }
    check_count(shape[0])?;
    // A file longer than its header and array holds something the lab would
    // silently leave out of the sum: refuse it. A shorter one fails to read.
    let array_bytes = shape[0] * size_of::<f32>() as u64;
    if let Some(extra) = size.checked_sub(header_bytes + array_bytes).filter(|&extra| extra > 0) {
        return Err(DataFileError(format!(
            "{extra} bytes follow the array's {} floats; a .npy file holds one array and nothing after it",
            shape[0]
        )));
    }
    npy.into_vec::<f32>().map_err(|e| DataFileError(format!("cannot read the array: {e}")))
}

fn check_count(count: u64) -> Result<(), DataFileError> {
    if count > MAX_FLOATS as u64 {
        Err(DataFileError(format!("{count} floats is more than the lab takes on the device ({MAX_FLOATS}, 2^29)")))
    } else {
        Ok(())
    }
}

/// A NumPy `.npy` file (format version 1.0) of type `descr` (`"<f4"`) and
/// shape `shape` (`"(3,)"`, Python's spelling) holding the raw bytes
/// `payload`: the magic, the header's length, the header dictionary padded so
/// the data starts at a multiple of 64 bytes, then the data. No check that the
/// payload fits the shape: the tests use it to make broken files too.
pub fn npy_bytes(descr: &str, shape: &str, payload: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    bytes.extend(payload);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("lab-data-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn floats(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn reads_npy_and_raw_floats() {
        let values = [1.5f32, -2.0, f32::NAN, 1e-40];
        let npy = write("ok.npy", &npy_bytes("<f4", "(4,)", &floats(&values)));
        let read = load(&npy).unwrap();
        assert_eq!(read.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), values.map(f32::to_bits));
        let raw = write("ok.f32", &floats(&values));
        assert_eq!(load(&raw).unwrap().len(), 4);
    }

    #[test]
    fn each_bad_file_gets_its_reason() {
        let mut trailing = npy_bytes("<f4", "(2,)", &[0; 8]);
        trailing.extend([0; 5]);
        let cases: [(&str, Vec<u8>, &str); 10] = [
            ("f64.npy", npy_bytes("<f8", "(2,)", &[0; 16]), "dtype is <f8, float64"),
            ("f16.npy", npy_bytes("<f2", "(2,)", &[0; 4]), "dtype is <f2, float16"),
            ("i32.npy", npy_bytes("<i4", "(2,)", &[0; 8]), "dtype is <i4, not float32"),
            ("big.npy", npy_bytes(">f4", "(2,)", &[0; 8]), "big-endian"),
            ("2d.npy", npy_bytes("<f4", "(2, 2)", &[0; 16]), "shape (2, 2), 2 dimensions"),
            ("empty.npy", npy_bytes("<f4", "(0,)", &[]), "empty"),
            ("text.npy", b"hello, world".to_vec(), "not a .npy file"),
            ("odd.f32", vec![0; 7], "7 bytes is not a whole number"),
            ("trailing.npy", trailing, "5 bytes follow the array's 2 floats"),
            ("short.npy", npy_bytes("<f4", "(3,)", &[0; 8]), "cannot read the array"),
        ];
        for (name, bytes, reason) in cases {
            let error = load(&write(name, &bytes)).unwrap_err().0;
            assert!(error.contains(reason), "{name}: {error}");
            assert_eq!(error.lines().count(), 1, "{name}: {error}");
        }
        assert!(load(Path::new("/nonexistent/x.npy")).unwrap_err().0.starts_with("cannot open"));
        assert!(check_count(MAX_FLOATS as u64 + 1).unwrap_err().0.contains("more than the lab takes"));
    }
}
