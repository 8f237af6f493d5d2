//! An effect's own data (issue 11): plain values a script keeps between the runs
//! of its handlers — booleans, integers, text, lists and string-keyed tables —
//! bounded in size and depth so that saving, hashing and copying it stay cheap.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Most values (counting every list item and table entry) in one effect's data.
pub const MAX_DATA_VALUES: usize = 256;
/// Deepest nesting of lists and tables.
pub const MAX_DATA_DEPTH: usize = 8;
/// Longest text.
pub const MAX_TEXT_BYTES: usize = 256;

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

/// Checks the bounds above; the message says which one is broken.
pub fn check_data(data: &Data) -> Result<(), String> {
    let mut count = 0;
    for value in data.values() {
        check_datum(value, 1, &mut count)?;
    }
    Ok(())
}

fn check_datum(value: &Datum, depth: usize, count: &mut usize) -> Result<(), String> {
    *count += 1;
    if *count > MAX_DATA_VALUES {
        return Err(format!("an effect's data holds at most {MAX_DATA_VALUES} values"));
    }
    if depth > MAX_DATA_DEPTH {
        return Err(format!("an effect's data nests at most {MAX_DATA_DEPTH} tables deep"));
    }
    match value {
        Datum::Text(t) if t.len() > MAX_TEXT_BYTES => {
            Err(format!("a text in an effect's data is at most {MAX_TEXT_BYTES} bytes"))
        }
        Datum::List(items) => items.iter().try_for_each(|v| check_datum(v, depth + 1, count)),
        Datum::Table(entries) => entries.values().try_for_each(|v| check_datum(v, depth + 1, count)),
        _ => Ok(()),
    }
}
