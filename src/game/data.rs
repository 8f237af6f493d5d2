//! An effect's own data: plain values a script keeps between the runs
//! of its handlers — booleans, integers, text, lists and string-keyed tables —
//! bounded in size and depth so that saving, hashing and copying it stay cheap.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Most values (counting every list item and table entry) in one effect's data.
pub const MAX_DATA_VALUES: usize = 256;
/// Deepest nesting of lists and tables.
pub const MAX_DATA_DEPTH: usize = 8;
/// Longest text, and longest key.
pub const MAX_TEXT_BYTES: usize = 256;
/// Most bytes of text in one effect's data, keys and texts together.
pub const MAX_DATA_BYTES: usize = 4096;

/// One plain value.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Datum {
    Bool(bool),
    Int(i64),
    Text(String),
    List(Vec<Datum>),
    Table(BTreeMap<String, Datum>),
}

/// An effect's data: a table of named values.
pub type Data = BTreeMap<String, Datum>;

/// A bound of a script's data or of the lasting effects broken: which one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundError(pub String);

impl std::fmt::Display for BoundError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BoundError {}

/// Checks the bounds above; the message says which one is broken.
pub fn check_data(data: &Data) -> Result<(), BoundError> {
    let mut tally = Tally::default();
    for (key, value) in data {
        tally.text(key)?;
        check_datum(value, 1, &mut tally)?;
    }
    Ok(())
}

/// What one effect's data has used of its bounds so far.
#[derive(Default)]
pub struct Tally {
    values: usize,
    bytes: usize,
}

impl Tally {
    /// Counts one more value.
    pub fn value(&mut self) -> Result<(), BoundError> {
        self.values += 1;
        if self.values > MAX_DATA_VALUES {
            return Err(BoundError(format!("an effect's data holds at most {MAX_DATA_VALUES} values")));
        }
        Ok(())
    }

    /// Counts a key or a text of `text.len()` bytes.
    pub fn text(&mut self, text: &str) -> Result<(), BoundError> {
        self.bytes_of(text.len())
    }

    pub fn bytes_of(&mut self, bytes: usize) -> Result<(), BoundError> {
        if bytes > MAX_TEXT_BYTES {
            return Err(BoundError(format!("a text or key in an effect's data is at most {MAX_TEXT_BYTES} bytes")));
        }
        self.bytes += bytes;
        if self.bytes > MAX_DATA_BYTES {
            return Err(BoundError(format!("an effect's data holds at most {MAX_DATA_BYTES} bytes of keys and texts")));
        }
        Ok(())
    }
}

fn check_datum(value: &Datum, depth: usize, tally: &mut Tally) -> Result<(), BoundError> {
    tally.value()?;
    if depth > MAX_DATA_DEPTH {
        return Err(BoundError(format!("an effect's data nests at most {MAX_DATA_DEPTH} tables deep")));
    }
    match value {
        Datum::Text(t) => tally.text(t),
        Datum::List(items) => items.iter().try_for_each(|v| check_datum(v, depth + 1, tally)),
        Datum::Table(entries) => entries.iter().try_for_each(|(k, v)| {
            tally.text(k)?;
            check_datum(v, depth + 1, tally)
        }),
        _ => Ok(()),
    }
}
