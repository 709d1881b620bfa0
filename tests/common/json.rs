//! A strict JSON reader (RFC 8259) for the Wycheproof files in `vectors/wycheproof/`, with the
//! same discipline as [`super::vectors`]: a test takes every field it understands from an
//! [`Object`] ([`Object::take_hex`], ...), names the ones it knowingly ignores
//! ([`Object::skip`]), and then calls [`Object::finish`], which panics if any field is left:
//! a field the test does not know is an error, not silently skipped (DESIGN.md, rule 6).
//! An object that was opened ([`Value::into_object`]) and dropped without `finish` panics too.
//!
//! Syntax errors (anything outside RFC 8259's grammar: trailing commas, comments, single
//! quotes, leading zeros, unescaped control characters, lone surrogates, text after the top
//! value) and duplicate keys in one object are errors. Every error names `file:line`.

/// A JSON value. Numbers keep their text (the tests read them as integers, exactly).
#[derive(Debug)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Object),
}

/// A JSON object whose fields a test takes one by one.
#[derive(Debug)]
pub struct Object {
    /// `file:line` of the opening brace, for errors.
    at: String,
    fields: Vec<(String, Option<Value>)>,
    opened: bool,
    finished: bool,
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// The object, opened for taking fields; panics (naming `what`) on another kind.
    pub fn into_object(self, what: &str) -> Object {
        match self {
            Value::Object(mut o) => {
                o.opened = true;
                o
            }
            v => panic!("{what}: expected an object, found {}", v.kind()),
        }
    }

    /// The array's elements; panics (naming `what`) on another kind.
    pub fn into_array(self, what: &str) -> Vec<Value> {
        match self {
            Value::Array(a) => a,
            v => panic!("{what}: expected an array, found {}", v.kind()),
        }
    }

    /// The string; panics (naming `what`) on another kind.
    pub fn into_string(self, what: &str) -> String {
        match self {
            Value::String(s) => s,
            v => panic!("{what}: expected a string, found {}", v.kind()),
        }
    }

    /// The number as a `u64`: only plain non-negative integers (no fraction or exponent)
    /// that fit; panics (naming `what`) otherwise.
    pub fn into_u64(self, what: &str) -> u64 {
        match self {
            Value::Number(n) => n
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{what}: {n} is not a u64")),
            v => panic!("{what}: expected a number, found {}", v.kind()),
        }
    }
}

impl Object {
    /// Where the object starts (`file:line`).
    pub fn at(&self) -> &str {
        &self.at
    }

    /// Takes `key`'s value; panics if the object has no such field or it was taken already.
    pub fn take(&mut self, key: &str) -> Value {
        self.take_opt(key)
            .unwrap_or_else(|| panic!("{}: no field {key:?}", self.at))
    }

    /// Takes `key`'s value if the object has that field; panics if it was taken already.
    pub fn take_opt(&mut self, key: &str) -> Option<Value> {
        let at = &self.at;
        let slot = self.fields.iter_mut().find(|(k, _)| k == key)?;
        Some(
            slot.1
                .take()
                .unwrap_or_else(|| panic!("{at}: field {key:?} taken twice")),
        )
    }

    /// `take(key)` as a string.
    pub fn take_str(&mut self, key: &str) -> String {
        let what = format!("{}: {key}", self.at);
        self.take(key).into_string(&what)
    }

    /// `take(key)` as a `u64`.
    pub fn take_u64(&mut self, key: &str) -> u64 {
        let what = format!("{}: {key}", self.at);
        self.take(key).into_u64(&what)
    }

    /// `take(key)` as a `usize`.
    pub fn take_usize(&mut self, key: &str) -> usize {
        let what = format!("{}: {key}", self.at);
        usize::try_from(self.take(key).into_u64(&what))
            .unwrap_or_else(|_| panic!("{what}: too large"))
    }

    /// `take(key)` as a string of lower- or upper-case hex digits, decoded; panics on an odd
    /// length or a non-hex character.
    pub fn take_hex(&mut self, key: &str) -> Vec<u8> {
        let what = format!("{}: {key}", self.at);
        let s = self.take(key).into_string(&what);
        super::vectors::decode_hex(&s).unwrap_or_else(|e| panic!("{what}: {e}"))
    }

    /// `take(key)` as an array.
    pub fn take_array(&mut self, key: &str) -> Vec<Value> {
        let what = format!("{}: {key}", self.at);
        self.take(key).into_array(&what)
    }

    /// `take(key)` as an array of strings.
    pub fn take_str_array(&mut self, key: &str) -> Vec<String> {
        let what = format!("{}: {key}", self.at);
        self.take(key)
            .into_array(&what)
            .into_iter()
            .map(|v| v.into_string(&what))
            .collect()
    }

    /// `take(key)` as an object, opened.
    pub fn take_object(&mut self, key: &str) -> Object {
        let what = format!("{}: {key}", self.at);
        self.take(key).into_object(&what)
    }

    /// Takes `key` without looking at it: a field the test knows and deliberately does not
    /// use (a comment, the notes). Panics if it is missing.
    pub fn skip(&mut self, key: &str) {
        drop(self.take(key));
    }

    /// Checks that every field was taken: panics naming the ones left (unknown fields).
    pub fn finish(self) {
        if let Err(e) = self.check_finished() {
            panic!("{e}");
        }
    }

    /// [`Self::finish`] as a `Result`: `Err("file:line: unknown fields [...]")` if any field
    /// was not taken.
    pub fn check_finished(mut self) -> Result<(), String> {
        self.finished = true;
        let left: Vec<&str> = self
            .fields
            .iter()
            .filter(|(_, v)| v.is_some())
            .map(|(k, _)| k.as_str())
            .collect();
        if left.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: unknown fields {left:?}", self.at))
        }
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        if self.opened && !self.finished && !std::thread::panicking() {
            panic!("{}: object dropped without finish()", self.at);
        }
    }
}

/// Reads and parses `vectors/<rel>`; its top value must be an object, returned opened.
/// Panics (with `file:line`) on any error.
pub fn read(rel: &str) -> Object {
    let p = super::vectors::path(rel);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let name = format!("vectors/{rel}");
    parse(&name, &bytes)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_object(&name)
}

/// Parses one JSON text (UTF-8, no byte-order mark) named `name` in errors.
pub fn parse(name: &str, text: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(text).map_err(|e| format!("{name}: not UTF-8: {e}"))?;
    let mut p = Parser {
        name,
        s: text.as_bytes(),
        i: 0,
        line: 1,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return p.err("text after the top-level value");
    }
    Ok(v)
}

struct Parser<'a> {
    name: &'a str,
    s: &'a [u8],
    i: usize,
    line: usize,
}

/// Nesting limit (the Wycheproof files nest five deep); keeps a hostile file from
/// overflowing the stack.
const MAX_DEPTH: usize = 64;

impl Parser<'_> {
    fn err<T>(&self, msg: &str) -> Result<T, String> {
        Err(format!("{}:{}: {msg}", self.name, self.line))
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                }
                _ => break,
            }
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            self.err(&format!("expected {:?}", c as char))
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            self.err("invalid literal")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return self.err("nested too deeply");
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.err("expected a value"),
            None => self.err("unexpected end of file"),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, String> {
        let at = format!("{}:{}", self.name, self.line);
        self.expect(b'{')?;
        let mut fields: Vec<(String, Option<Value>)> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                if self.peek() != Some(b'"') {
                    return self.err("expected a key");
                }
                let key = self.string()?;
                if fields.iter().any(|(k, _)| *k == key) {
                    return self.err(&format!("duplicate key {key:?}"));
                }
                self.ws();
                self.expect(b':')?;
                self.ws();
                let v = self.value(depth + 1)?;
                fields.push((key, Some(v)));
                self.ws();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b'}') => {
                        self.i += 1;
                        break;
                    }
                    _ => return self.err("expected ',' or '}'"),
                }
            }
        }
        Ok(Value::Object(Object {
            at,
            fields,
            opened: false,
            finished: false,
        }))
    }

    fn array(&mut self, depth: usize) -> Result<Value, String> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                _ => return self.err("expected ',' or ']'"),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let Some(h) = self.s.get(self.i..self.i + 4) else {
            return self.err("short \\u escape");
        };
        let mut v = 0u32;
        for &c in h {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return self.err("bad \\u escape"),
            };
            v = v << 4 | u32::from(d);
        }
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = String::new();
        loop {
            // Copy the run of plain characters (the input is valid UTF-8, and '"', '\\' and
            // control characters are ASCII, so the run ends on a character boundary).
            let start = self.i;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).unwrap());
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return self.err("unterminated string");
                    };
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xd800..0xdc00).contains(&hi) {
                                if !self.s[self.i..].starts_with(b"\\u") {
                                    return self.err("lone high surrogate");
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return self.err("bad low surrogate");
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else if (0xdc00..0xe000).contains(&hi) {
                                return self.err("lone low surrogate");
                            } else {
                                hi
                            };
                            out.push(char::from_u32(cp).unwrap());
                        }
                        _ => return self.err("bad escape"),
                    }
                }
                Some(_) => return self.err("control character in a string"),
                None => return self.err("unterminated string"),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return self.err("leading zero in a number");
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("bad number"),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return self.err("bad fraction");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return self.err("bad exponent");
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
        Ok(Value::Number(text.to_string()))
    }
}
