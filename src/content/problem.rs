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

/// The file and the message made visible (text.rs): a file's name and the
/// values a parser quotes come from outside.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::text::visible(&self.file.display().to_string()))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", crate::text::visible(&self.message))
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

    /// Reads a file as text, refusing missing, huge, special (a FIFO, a
    /// device) or non-UTF-8 files, and, when `root` is given, files that are
    /// not inside it once links are followed.
    pub fn read_text(&mut self, path: &Path, root: Option<&Path>) -> Option<String> {
        match read_plain_file(path, root) {
            Ok(text) => Some(text),
            Err(problem) => {
                self.push(problem);
                None
            }
        }
    }

    /// Reads and parses a YAML manifest; a parse error becomes a located problem.
    pub fn read_yaml<T: DeserializeOwned>(&mut self, path: &Path) -> Option<T> {
        self.read_yaml_text(path, None).map(|(value, _)| value)
    }

    /// As [`Problems::read_yaml`], also giving the text that was parsed; the
    /// file must be inside `root` when one is given.
    pub fn read_yaml_text<T: DeserializeOwned>(&mut self, path: &Path, root: Option<&Path>) -> Option<(T, String)> {
        let text = self.read_text(path, root)?;
        match parse_yaml(&text) {
            Ok(value) => Some((value, text)),
            Err(YamlError { line, column, message }) => {
                self.push(Problem::at(path, line, column, message));
                None
            }
        }
    }

    /// Reads the script a manifest names (default: `<id>.lua` beside it). A problem
    /// with a script the manifest names is located at its `script:` line.
    pub fn read_script(
        &mut self,
        manifest: &Path,
        text: &str,
        named: Option<&str>,
        id: &str,
        root: Option<&Path>,
    ) -> Option<super::Script> {
        let file = named.map_or_else(|| format!("{id}.lua"), str::to_string);
        let refuse = |problems: &mut Problems, message: String| match named {
            Some(_) => problems.at_key(manifest, text, "script", &message),
            None => problems.push(Problem::file(manifest, message)),
        };
        if file.contains("..") || file.starts_with('/') || file.contains('\\') || !file.ends_with(".lua") {
            refuse(self, format!("script '{file}' must be a .lua file beside the manifest"));
            return None;
        }
        let path = manifest.parent().unwrap_or(Path::new(".")).join(&file);
        if !path.is_file() {
            refuse(self, format!("its script {} is missing", path.display()));
            return None;
        }
        let source = self.read_text(&path, root)?;
        Some(super::Script { path, source })
    }
}

/// A content file's text: a plain file (not a FIFO, a device or a folder),
/// inside `root` once links are followed when a root is given, at most
/// [`MAX_FILE_BYTES`] long as read (a file's size on disk may say 0, as
/// /proc's do), in UTF-8.
pub fn read_plain_file(path: &Path, root: Option<&Path>) -> Result<String, Problem> {
    let refused = |message: String| Problem::file(path, message);
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| refused(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() { "a folder" } else { "a special file (a FIFO, a socket or a device)" };
        return Err(refused(format!("is {kind}, not a plain file")));
    }
    if let Some(root) = root {
        // A relative root may be empty: the current folder.
        let root = if root.as_os_str().is_empty() { Path::new(".") } else { root };
        let real = std::fs::canonicalize(path).map_err(|e| refused(format!("cannot read: {e}")))?;
        let real_root =
            std::fs::canonicalize(root).map_err(|e| refused(format!("cannot read its content root: {e}")))?;
        if !real.starts_with(&real_root) {
            return Err(refused(format!(
                "is a link to {}, outside the content root {}; content files must lie inside it",
                real.display(),
                real_root.display()
            )));
        }
    }
    let file = std::fs::File::open(path).map_err(|e| refused(format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| refused(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(refused(format!("is more than {MAX_FILE_BYTES} bytes; the limit is {MAX_FILE_BYTES}")));
    }
    String::from_utf8(bytes).map_err(|_| refused("is not UTF-8 text".to_string()))
}

/// Most bytes a YAML file may stand for once its aliases are expanded: an
/// alias repeats its anchor's whole node, so a small file can stand for
/// gigabytes. Counted on serde_yaml's events before any value is built.
pub const MAX_EXPANDED_BYTES: usize = 4 * MAX_FILE_BYTES as usize;

/// Whether the YAML text, with its aliases expanded, stays within
/// [`MAX_EXPANDED_BYTES`]: a visit of every node that builds nothing.
fn expansion_within_bound(text: &str) -> Result<(), YamlError> {
    use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};

    struct Count<'a>(&'a std::cell::Cell<usize>);
    impl Count<'_> {
        fn add<E: serde::de::Error>(&self, bytes: usize) -> Result<(), E> {
            self.0.set(self.0.get() + bytes + 1);
            if self.0.get() > MAX_EXPANDED_BYTES {
                return Err(E::custom(format!(
                    "with its aliases expanded the file stands for more than {MAX_EXPANDED_BYTES} bytes"
                )));
            }
            Ok(())
        }
    }
    impl<'de> serde::de::DeserializeSeed<'de> for Count<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Count<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any YAML")
        }
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
            self.add(0)
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
            self.add(8)
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
            self.add(8)
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
            self.add(8)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
            self.add(v.len())
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
            self.add(0)
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
            self.add(0)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
        fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.add::<A::Error>(0)?;
            while seq.next_element_seed(Count(self.0))?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            self.add::<A::Error>(0)?;
            while map.next_key_seed(Count(self.0))?.is_some() {
                map.next_value_seed(Count(self.0))?;
            }
            Ok(())
        }
        fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
            use serde::de::VariantAccess;
            let ((), variant) = data.variant_seed(Count(self.0))?;
            variant.newtype_variant_seed(Count(self.0))
        }
    }
    let total = std::cell::Cell::new(0);
    let mut documents = serde_yaml::Deserializer::from_str(text);
    if let Some(document) = documents.next()
        && let Err(e) = serde::de::DeserializeSeed::deserialize(Count(&total), document)
    {
        let message = e.to_string();
        if message.contains("aliases expanded") {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            let message = message.split(" at line ").next().unwrap_or(&message).to_string();
            return Err(YamlError { line, column, message });
        }
    }
    Ok(())
}

/// Most `[` and `{` a YAML file may hold. libyaml's flow parsing costs time in
/// proportion to the nesting depth for every token, so a file of deeply nested
/// flow collections takes minutes though it is small; every level of nesting
/// needs one of these characters, so counting them bounds the depth. The shipped
/// files use at most a few dozen; serde_yaml refuses anything nested deeper than
/// 128 levels anyway.
pub const MAX_FLOW_OPENINGS: usize = 256;

/// Where the text has more than [`MAX_FLOW_OPENINGS`] flow openings, if it does.
fn too_many_openings(text: &str) -> Option<YamlError> {
    let mut seen = 0;
    for (i, line) in text.lines().enumerate() {
        for (col, c) in line.chars().enumerate() {
            if c == '[' || c == '{' {
                seen += 1;
                if seen > MAX_FLOW_OPENINGS {
                    let message = format!(
                        "more than {MAX_FLOW_OPENINGS} '[' and '{{': nested too deep or too many collections for a manifest"
                    );
                    return Some(YamlError { line: i + 1, column: col + 1, message });
                }
            }
        }
    }
    None
}

/// Why YAML text did not parse, and where (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for YamlError {}

/// Parses YAML text into `T`, giving where and why on failure.
pub fn parse_yaml<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    if let Some(problem) = too_many_openings(text) {
        return Err(problem);
    }
    expansion_within_bound(text)?;
    serde_yaml::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let message = e.to_string();
        // serde_yaml appends " at line L column C"; the location is reported separately.
        let message = plain_type_names(&clip_quoted(message.split(" at line ").next().unwrap_or(&message)));
        // serde reports a duplicate at the start of its map; point at the second mention.
        let duplicate = ["duplicate field `", "duplicate key '"]
            .iter()
            .find_map(|p| message.split_once(p).map(|(_, rest)| rest.split(['`', '\'']).next().unwrap_or("")));
        let (line, column) = duplicate.and_then(|key| locate_nth(text, key, 1)).unwrap_or((line, column));
        // serde_yaml reports a second document at 1:1; point at its `---`.
        let (line, column) = if message.contains("more than one document") {
            second_document(text).unwrap_or((line, column))
        } else {
            (line, column)
        };
        YamlError { line, column, message }
    })
}

/// A Rust type as a modder reads it (`u8`: "a whole number from 0 to 255"), for
/// the messages of serde and mlua, which name the type a value should have had.
pub fn plain_type(name: &str) -> Option<&'static str> {
    Some(match name {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number, 0 or more",
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "String" | "string" => "a string",
        "bool" | "boolean" => "true or false",
        _ => return None,
    })
}

/// `message` with each `expected <Rust type>` said in words ([`plain_type`]).
pub fn plain_type_names(message: &str) -> String {
    const EXPECTED: &str = "expected ";
    let mut out = String::with_capacity(message.len() + 32);
    let mut rest = message;
    while let Some(at) = rest.find(EXPECTED) {
        let after = &rest[at + EXPECTED.len()..];
        let name_len = after.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(after.len());
        out.push_str(&rest[..at + EXPECTED.len()]);
        match plain_type(&after[..name_len]) {
            Some(words) => out.push_str(words),
            None => out.push_str(&after[..name_len]),
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

/// A parser's message with every quoted value longer than 60 characters cut to
/// its first 40 and `…`: serde quotes the offending value whole, and a file
/// that is one long string (a deck path pointing at the wrong file) would
/// otherwise fill the terminal.
pub fn clip_quoted(message: &str) -> String {
    const LONGEST: usize = 60;
    const KEPT: usize = 40;
    let mut out = String::with_capacity(message.len().min(400));
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        // The closing quote: the first not escaped by a backslash.
        let mut escaped = false;
        let close = rest.char_indices().find(|&(_, c)| {
            let end = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            end
        });
        let Some((close, _)) = close else { break };
        let quoted = &rest[..close];
        if quoted.chars().count() > LONGEST {
            out.extend(quoted.chars().take(KEPT));
            out.push('…');
        } else {
            out.push_str(quoted);
        }
        out.push('"');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Line and column of the `---` that starts a second document (one after content).
fn second_document(text: &str) -> Option<(usize, usize)> {
    let mut content = false;
    for (i, line) in text.lines().enumerate() {
        let marker = line == "---" || line.starts_with("--- ");
        if marker && content {
            return Some((i + 1, 1));
        }
        let t = line.trim();
        content |= !marker && !t.is_empty() && !t.starts_with('#') && !t.starts_with('%');
    }
    None
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

/// Line and column (1-based) of the first `key:` or list item `- key` in YAML text
/// (the key plain or quoted), or of `key` in a flow list or map.
fn locate(text: &str, key: &str) -> Option<(usize, usize)> {
    let spellings = [key.to_string(), format!("\"{key}\""), format!("'{key}'")];
    text.lines().enumerate().find_map(|(i, line)| {
        let code = if line.trim_start().starts_with('#') { "" } else { line.split(" #").next().unwrap_or("") };
        let trimmed = code.trim_start().trim_start_matches("- ").trim_start_matches('[').trim_start_matches('{');
        let col = code.len() - trimmed.len() + 1;
        let is_key = spellings.iter().any(|k| trimmed.starts_with(&format!("{k}:")) || trimmed.trim_end() == k);
        if is_key {
            return Some((i + 1, col));
        }
        spellings.iter().find_map(|k| {
            [format!(" {k},"), format!(" {k}]"), format!(" {k}:"), format!("[{k},"), format!("{{{k}:")]
                .iter()
                .find_map(|p| code.find(p.as_str()))
                .map(|c| (i + 1, c + 2))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::clip_quoted;

    #[test]
    fn long_quoted_values_are_cut_and_the_rest_kept() {
        let long = "root:x:0:0:root:/root:/bin/bash ".repeat(20);
        let message = format!("invalid type: string \"{long}\", expected struct DeckManifest");
        let clipped = clip_quoted(&message);
        assert_eq!(clipped, format!("invalid type: string \"{}…\", expected struct DeckManifest", &long[..40]));
        // Short values, escaped quotes and an unclosed quote pass unchanged.
        for same in ["unknown field `x`, expected one of `name`, `text`", r#"bad "a \" b" here"#, "open \" only"] {
            assert_eq!(clip_quoted(same), same);
        }
    }
}
