//! The one strict reader for the vector files in `vectors/`: NIST CAVP `.rsp` files and the
//! RFC vector files kept by pyca/cryptography, which share one shape.
//!
//! # Format
//!
//! ```text
//! #  CAVS 11.0                      <- comment: a line whose first non-blank character is '#'
//! [L = 32]                          <- section attribute: applies to every record below it
//!
//! Len = 8                           <- a record: `Key = value` lines (the value may be empty)
//! Msg = d3
//! MD = 28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1
//!                                   <- a blank line ends the record
//! ```
//!
//! - Consecutive section headers (`[Keylen = 128]`, `[IVlen = 96]`, ... or a bare `[ENCRYPT]`)
//!   form one group; the first header after a record starts a new group, replacing the old.
//! - A line holding one bare word (`FAIL` in the GCM decryption files) is a flag field.
//! - Lines may end in CRLF (the CAVP files do) or LF.
//! - Records end at a blank line ([`Split::BlankLine`]), or, for files that put blank lines
//!   inside records (the RFC 5869 files do), start at each line with a given key
//!   ([`Split::AtKey`]).
//!
//! # Strictness (ring `src/testutil.rs`, BoringSSL `crypto/test/file_test.h`)
//!
//! A test takes every field it understands ([`Record::take_hex`], ...) and then calls
//! [`Record::finish`], which panics if any field or section attribute was not taken: a field
//! the test does not know is an error, not silently skipped. Dropping a record without
//! `finish` panics too. Duplicate keys, bad hex, odd hex lengths, malformed lines and numbers
//! are errors. Every error names `file:line`.

use std::fmt;

/// How records are delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// A blank line ends a record (CAVP `.rsp`, the RFC HMAC files).
    BlankLine,
    /// Each line with this key starts a new record; blank lines are only spacing.
    AtKey(&'static str),
}

#[derive(Clone, Debug)]
struct Field {
    key: String,
    /// `None` for a bare-word flag line.
    value: Option<String>,
    line: usize,
    taken: bool,
}

/// The records of one file.
#[derive(Debug)]
pub struct Vectors {
    name: String,
    records: Vec<Record>,
}

impl Vectors {
    /// The file's name as errors show it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many records the file has.
    pub fn len(&self) -> usize {
        self.records.len()
    }
}

impl IntoIterator for Vectors {
    type Item = Record;
    type IntoIter = std::vec::IntoIter<Record>;
    fn into_iter(self) -> Self::IntoIter {
        self.records.into_iter()
    }
}

/// The absolute path of `rel` (e.g. `"sha/SHA256ShortMsg.rsp"`) under `vectors/`. The
/// directory is fixed at compile time, so test binaries run under qemu find it too.
pub fn path(rel: &str) -> String {
    format!("{}/vectors/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// Reads and parses `vectors/<rel>` with blank-line-separated records; panics (with
/// `file:line`) on any syntax error.
pub fn read(rel: &str) -> Vectors {
    read_split(rel, Split::BlankLine)
}

/// Like [`read`], with another record delimiter.
pub fn read_split(rel: &str, split: Split) -> Vectors {
    let p = path(rel);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    match parse(&format!("vectors/{rel}"), &text, split) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

/// Parses `text` (named `name` in errors). Syntax errors are `Err("name:line: ...")`.
pub fn parse(name: &str, text: &str, split: Split) -> Result<Vectors, String> {
    let mut records = Vec::new();
    let mut open = None;
    match parse_into(name, text, split, &mut records, &mut open) {
        Ok(()) => Ok(Vectors {
            name: name.to_string(),
            records,
        }),
        Err(e) => {
            // The records built so far are discarded, not checked.
            for r in records.iter_mut().chain(open.as_mut()) {
                r.finished = true;
            }
            Err(e)
        }
    }
}

fn parse_into(
    name: &str,
    text: &str,
    split: Split,
    records: &mut Vec<Record>,
    open: &mut Option<Record>,
) -> Result<(), String> {
    let mut section: Vec<Field> = Vec::new();
    // Whether the last non-blank, non-comment line was a section header.
    let mut in_headers = false;
    let err = |line: usize, msg: String| Err(format!("{name}:{line}: {msg}"));

    for (i, raw) in text.split('\n').enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.contains('\r') {
            return err(n, "stray carriage return".into());
        }
        let t = line.trim();
        if t.is_empty() {
            if split == Split::BlankLine {
                if let Some(r) = open.take() {
                    records.push(r);
                }
            }
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        if let Some(inner) = t.strip_prefix('[') {
            let Some(inner) = inner.strip_suffix(']') else {
                return err(n, format!("section header without ']': {t:?}"));
            };
            if let (Split::BlankLine, Some(r)) = (split, open.as_ref()) {
                return err(
                    n,
                    format!("section header inside the record of line {}", r.line),
                );
            }
            if let Some(r) = open.take() {
                records.push(r);
            }
            if !in_headers {
                section.clear();
            }
            in_headers = true;
            let f = match key_value(inner) {
                Ok((key, value)) => Field {
                    key: key.to_string(),
                    value: value.map(str::to_string),
                    line: n,
                    taken: false,
                },
                Err(e) => return err(n, e),
            };
            if let Some(prev) = section.iter().find(|p| p.key == f.key) {
                return err(
                    n,
                    format!(
                        "section attribute {:?} repeats line {} in one group",
                        f.key, prev.line
                    ),
                );
            }
            section.push(f);
            continue;
        }
        let (key, value) = match key_value(t) {
            Ok(kv) => kv,
            Err(e) => return err(n, e),
        };
        in_headers = false;
        let starts = match split {
            Split::BlankLine => open.is_none(),
            Split::AtKey(k) => {
                if key == k {
                    true
                } else if open.is_none() {
                    return err(n, format!("field {key:?} before the first {k:?}"));
                } else {
                    false
                }
            }
        };
        if starts {
            if let Some(r) = open.take() {
                records.push(r);
            }
            *open = Some(Record {
                file: name.to_string(),
                line: n,
                fields: Vec::new(),
                section: section.clone(),
                finished: false,
            });
        }
        let r = open.as_mut().expect("a record is open here");
        if let Some(prev) = r.fields.iter().find(|f| f.key == key) {
            return err(
                n,
                format!("duplicate key {key:?} (first on line {})", prev.line),
            );
        }
        r.fields.push(Field {
            key: key.to_string(),
            value: value.map(str::to_string),
            line: n,
            taken: false,
        });
    }
    if let Some(r) = open.take() {
        records.push(r);
    }
    Ok(())
}

/// Splits `Key = value` (value may be empty) or a bare `Word`. Keys are one word.
fn key_value(t: &str) -> Result<(&str, Option<&str>), String> {
    let (key, value) = match t.split_once('=') {
        Some((k, v)) => (k.trim(), Some(v.trim())),
        None => (t, None),
    };
    if key.is_empty() {
        return Err(format!("line without a key: {t:?}"));
    }
    if key.contains(char::is_whitespace) || key.contains(['[', ']']) {
        return Err(format!("malformed key in {t:?}"));
    }
    Ok((key, value))
}

/// One record, with the section attributes in force where it starts.
#[derive(Debug)]
pub struct Record {
    file: String,
    line: usize,
    fields: Vec<Field>,
    section: Vec<Field>,
    finished: bool,
}

/// `file:line` of a record, for assertion messages.
pub struct At<'a>(&'a str, usize);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.0, self.1)
    }
}

impl Record {
    /// `file:line` of the record's first line.
    pub fn at(&self) -> At<'_> {
        At(&self.file, self.line)
    }

    /// The record's first line.
    pub fn line(&self) -> usize {
        self.line
    }

    fn fail(&mut self, line: usize, msg: impl fmt::Display) -> ! {
        self.finished = true;
        panic!("{}:{}: {}", self.file, line, msg)
    }

    /// Marks `key` taken and returns its value (`None` for a flag) and line.
    fn take(&mut self, key: &str) -> (Option<String>, usize) {
        let Some(i) = self.fields.iter().position(|f| f.key == key) else {
            let l = self.line;
            self.fail(l, format_args!("missing field {key:?}"));
        };
        if self.fields[i].taken {
            let l = self.fields[i].line;
            self.fail(l, format_args!("field {key:?} taken twice"));
        }
        self.fields[i].taken = true;
        (self.fields[i].value.clone(), self.fields[i].line)
    }

    fn take_value(&mut self, key: &str) -> (String, usize) {
        match self.take(key) {
            (Some(v), l) => (v, l),
            (None, l) => self.fail(l, format_args!("{key:?} is a flag, not `{key} = value`")),
        }
    }

    /// Whether the record has field `key` (taken or not).
    pub fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|f| f.key == key)
    }

    /// The value of `key` as bytes from hex digits (an empty value is an empty vector).
    pub fn take_hex(&mut self, key: &str) -> Vec<u8> {
        let (v, l) = self.take_value(key);
        match decode_hex(&v) {
            Ok(b) => b,
            Err(e) => self.fail(l, format_args!("{key}: {e}")),
        }
    }

    /// The value of `key` as bytes: hex digits as in [`Record::take_hex`], or a double-quoted
    /// ASCII string taken literally (BoringSSL's `file_test` shape, in the ChaCha20-Poly1305
    /// files: `IN= "..."`, `CT= ""`). The string has no escapes: a `"` or `\` inside it, a
    /// missing closing quote or a non-ASCII byte is an error.
    pub fn take_bytes(&mut self, key: &str) -> Vec<u8> {
        let (v, l) = self.take_value(key);
        let Some(inner) = v.strip_prefix('"') else {
            return match decode_hex(&v) {
                Ok(b) => b,
                Err(e) => self.fail(l, format_args!("{key}: {e}")),
            };
        };
        match inner.strip_suffix('"') {
            Some(s) if !s.contains(['"', '\\']) && s.is_ascii() => s.as_bytes().to_vec(),
            _ => self.fail(l, format_args!("{key}: malformed quoted string {v:?}")),
        }
    }

    /// The value of `key` as a decimal number.
    pub fn take_usize(&mut self, key: &str) -> usize {
        let (v, l) = self.take_value(key);
        match parse_usize(&v) {
            Ok(n) => n,
            Err(e) => self.fail(l, format_args!("{key}: {e}")),
        }
    }

    /// The value of `key` as text.
    pub fn take_str(&mut self, key: &str) -> String {
        self.take_value(key).0
    }

    /// Whether the bare-word flag line `key` (e.g. `FAIL`) is present; takes it if so.
    pub fn take_flag(&mut self, key: &str) -> bool {
        if !self.has(key) {
            return false;
        }
        match self.take(key) {
            (None, _) => true,
            (Some(_), l) => self.fail(l, format_args!("{key:?} has a value; expected a flag")),
        }
    }

    /// The section attribute `name` (`[name = value]`) in force for this record. Section
    /// attributes may be read any number of times; each must be read at least once.
    pub fn section(&mut self, name: &str) -> String {
        let Some(i) = self.section.iter().position(|f| f.key == name) else {
            let l = self.line;
            self.fail(
                l,
                format_args!("no section attribute [{name} = ...] in force"),
            );
        };
        self.section[i].taken = true;
        match self.section[i].value.clone() {
            Some(v) => v,
            None => {
                let l = self.section[i].line;
                self.fail(l, format_args!("[{name}] has no value"))
            }
        }
    }

    /// The section attribute `name` as a decimal number.
    pub fn section_usize(&mut self, name: &str) -> usize {
        let v = self.section(name);
        match parse_usize(&v) {
            Ok(n) => n,
            Err(e) => {
                let l = self
                    .section
                    .iter()
                    .find(|f| f.key == name)
                    .map_or(0, |f| f.line);
                self.fail(l, format_args!("[{name}]: {e}"))
            }
        }
    }

    /// Whether the bare section header `[name]` (e.g. `[ENCRYPT]`) is in force; reads it.
    pub fn section_flag(&mut self, name: &str) -> bool {
        match self.section.iter().position(|f| f.key == name) {
            None => false,
            Some(i) if self.section[i].value.is_none() => {
                self.section[i].taken = true;
                true
            }
            Some(i) => {
                let l = self.section[i].line;
                self.fail(
                    l,
                    format_args!("[{name} = ...] has a value; expected [{name}]"),
                )
            }
        }
    }

    /// Ends the record: panics if a field or section attribute was not taken.
    pub fn finish(mut self) {
        self.finished = true;
        let left: Vec<String> = self
            .fields
            .iter()
            .chain(&self.section)
            .filter(|f| !f.taken)
            .map(|f| format!("{:?} (line {})", f.key, f.line))
            .collect();
        if !left.is_empty() {
            panic!(
                "{}:{}: unknown/unused field(s): {}",
                self.file,
                self.line,
                left.join(", ")
            );
        }
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            panic!(
                "{}:{}: record dropped without finish()",
                self.file, self.line
            );
        }
    }
}

/// Hex digits (either case, even count) to bytes.
pub fn decode_hex(s: &str) -> Result<Vec<u8>, String> {
    if s.len() % 2 != 0 {
        return Err(format!("odd number of hex digits ({})", s.len()));
    }
    let digit = |c: u8, pos: usize| -> Result<u8, String> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(format!("bad hex digit {:?} at offset {pos}", c as char)),
        }
    };
    s.as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, p)| Ok(digit(p[0], 2 * i)? << 4 | digit(p[1], 2 * i + 1)?))
        .collect()
}

fn parse_usize(s: &str) -> Result<usize, String> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("not a decimal number: {s:?}"));
    }
    s.parse().map_err(|e| format!("{s:?}: {e}"))
}
