//! Problems found while loading content, each with its file, line and column.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// Largest manifest or script read, in bytes; anything bigger is refused unread.
pub const MAX_FILE_BYTES: u64 = 256 * 1024;

/// One problem in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    /// 1-based line and column, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl Problem {
    pub fn file(file: &Path, message: impl Into<String>) -> Problem {
        Problem { file: file.to_path_buf(), line: None, column: None, message: message.into() }
    }

    pub fn at(file: &Path, line: usize, column: usize, message: impl Into<String>) -> Problem {
        Problem { file: file.to_path_buf(), line: Some(line), column: Some(column), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem found so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

impl Problems {
    pub fn push(&mut self, problem: Problem) {
        self.0.push(problem);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_result<T>(self, value: T) -> Result<T, Problems> {
        if self.is_empty() { Ok(value) } else { Err(self) }
    }

    /// A problem about `key` in a YAML file, located at the key's first mention.
    pub fn at_key(&mut self, file: &Path, text: &str, key: &str, message: &str) {
        let (line, column) = locate(text, key).unwrap_or((1, 1));
        self.push(Problem::at(file, line, column, message));
    }

    /// Reads a file as text, refusing missing, huge or non-UTF-8 files.
    pub fn read_text(&mut self, path: &Path) -> Option<String> {
        match std::fs::metadata(path) {
            Err(e) => {
                self.push(Problem::file(path, format!("cannot read: {e}")));
                return None;
            }
            Ok(meta) if meta.len() > MAX_FILE_BYTES => {
                self.push(Problem::file(path, format!("is {} bytes; the limit is {MAX_FILE_BYTES}", meta.len())));
                return None;
            }
            Ok(_) => {}
        }
        match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) => {
                self.push(Problem::file(path, format!("cannot read: {e}")));
                None
            }
        }
    }

    /// Reads and parses a YAML manifest; a parse error becomes a located problem.
    pub fn read_yaml<T: DeserializeOwned>(&mut self, path: &Path) -> Option<T> {
        let text = self.read_text(path)?;
        match parse_yaml(&text) {
            Ok(value) => Some(value),
            Err((line, column, message)) => {
                self.push(Problem::at(path, line, column, message));
                None
            }
        }
    }

    /// Reads the script a manifest names (default: `<id>.lua` beside it).
    pub fn read_script(&mut self, manifest: &Path, named: Option<&str>, id: &str) -> Option<super::Script> {
        let file = named.map_or_else(|| format!("{id}.lua"), str::to_string);
        if file.contains("..") || file.starts_with('/') || !file.ends_with(".lua") {
            self.push(Problem::file(manifest, format!("script '{file}' must be a .lua file beside the manifest")));
            return None;
        }
        let path = manifest.parent().unwrap_or(Path::new(".")).join(&file);
        if !path.exists() {
            self.push(Problem::file(manifest, format!("its script {} is missing", path.display())));
            return None;
        }
        let source = self.read_text(&path)?;
        Some(super::Script { path, source })
    }
}

/// Parses YAML text into `T`, giving (line, column, message) on failure.
pub fn parse_yaml<T: DeserializeOwned>(text: &str) -> Result<T, (usize, usize, String)> {
    serde_yaml::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let message = e.to_string();
        // serde_yaml appends " at line L column C"; the location is reported separately.
        let message = message.split(" at line ").next().unwrap_or(&message).to_string();
        // serde reports a duplicate at the start of its map; point at the second mention.
        let duplicate = ["duplicate field `", "duplicate key '"]
            .iter()
            .find_map(|p| message.split_once(p).map(|(_, rest)| rest.split(['`', '\'']).next().unwrap_or("")));
        let (line, column) = duplicate.and_then(|key| locate_nth(text, key, 1)).unwrap_or((line, column));
        (line, column, message)
    })
}

/// Line and column of the `n`th (0-based) line that starts with `key:`.
fn locate_nth(text: &str, key: &str, n: usize) -> Option<(usize, usize)> {
    let pattern = format!("{key}:");
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let trimmed = line.trim_start();
            trimmed.starts_with(&pattern).then(|| (i + 1, line.len() - trimmed.len() + 1))
        })
        .nth(n)
}

/// Line and column (1-based) of the first `key:` or list item `- key` in YAML text.
fn locate(text: &str, key: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(i, line)| {
        let code = line.split('#').next().unwrap_or("");
        let trimmed = code.trim_start().trim_start_matches("- ").trim_start_matches('[');
        let col = code.len() - trimmed.len() + 1;
        let is_key = trimmed.starts_with(&format!("{key}:")) || trimmed.trim_end() == key;
        if is_key {
            return Some((i + 1, col));
        }
        code.find(&format!(" {key},")).or_else(|| code.find(&format!(" {key}]"))).map(|c| (i + 1, c + 2))
    })
}
