//! The JSON parser: RFC 8259's grammar, strictly (no trailing commas, comments, single quotes,
//! leading zeros or unescaped control characters; strings valid UTF-8, surrogate escapes
//! paired), with nesting limited so that hostile input cannot exhaust the stack. Errors name the
//! line and column where the text went wrong.

use super::{Map, Number, Value};

/// The deepest nesting of arrays and objects accepted (127 levels, as serde_json allows).
const MAX_DEPTH: usize = 127;

/// Why JSON text was refused, and where (1-based line and column, in bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// What went wrong.
    what: &'static str,
    /// The line of the offending byte.
    line: usize,
    /// The column of the offending byte.
    column: usize,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.what, self.line, self.column
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses one JSON value (with optional whitespace around it) from `bytes`.
///
/// # Errors
/// [`ParseError`] for anything but exactly one well-formed value.
#[cfg(test)]
pub(crate) fn parse(bytes: &[u8]) -> Result<Value, ParseError> {
    Parser::new(bytes, false).document()
}

/// As [`parse`], also accepting the bare tokens `NaN`, `Infinity` and `-Infinity` where a value
/// may stand (Python's `json` writes them), each read as a string holding a NUL then the token
/// (`"\u0000NaN"`).
///
/// # Errors
/// As [`parse`].
pub(crate) fn parse_with_specials(bytes: &[u8]) -> Result<Value, ParseError> {
    Parser::new(bytes, true).document()
}

/// The parser's state: the text, the position and the nesting depth.
struct Parser<'a> {
    /// The whole text.
    b: &'a [u8],
    /// The next byte to read.
    pos: usize,
    /// Arrays and objects open around the position.
    depth: usize,
    /// Whether bare `NaN`, `Infinity` and `-Infinity` are values.
    specials: bool,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `b`.
    fn new(b: &'a [u8], specials: bool) -> Parser<'a> {
        Parser {
            b,
            pos: 0,
            depth: 0,
            specials,
        }
    }

    /// An error at byte `at` (the end of the text at most).
    fn err_at(&self, what: &'static str, at: usize) -> ParseError {
        let before = &self.b[..at.min(self.b.len())];
        let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        ParseError {
            what,
            line,
            column: before.len() - line_start + 1,
        }
    }

    /// An error at the current position.
    fn err(&self, what: &'static str) -> ParseError {
        self.err_at(what, self.pos)
    }

    /// The next byte, if any.
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// The whole text: one value and nothing but whitespace after it.
    fn document(mut self) -> Result<Value, ParseError> {
        let v = self.value()?;
        self.skip_ws();
        if self.pos < self.b.len() {
            return Err(self.err("trailing characters"));
        }
        Ok(v)
    }

    /// One value, after optional whitespace.
    fn value(&mut self) -> Result<Value, ParseError> {
        self.skip_ws();
        match self.peek() {
            None => Err(self.err("EOF while parsing a value")),
            Some(b'{') => self.nested(Parser::object),
            Some(b'[') => self.nested(Parser::array),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => {
                if self.specials && self.b[self.pos..].starts_with(b"-Infinity") {
                    return Ok(self.special("-Infinity"));
                }
                self.number().map(Value::Number)
            }
            Some(_) => {
                for (word, v) in [
                    ("null", Value::Null),
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                ] {
                    if self.b[self.pos..].starts_with(word.as_bytes()) {
                        self.pos += word.len();
                        return Ok(v);
                    }
                }
                if self.specials {
                    for word in ["NaN", "Infinity"] {
                        if self.b[self.pos..].starts_with(word.as_bytes()) {
                            return Ok(self.special(word));
                        }
                    }
                }
                Err(self.err("expected value"))
            }
        }
    }

    /// A bare non-finite token (at the position) as its marked string.
    fn special(&mut self, word: &str) -> Value {
        self.pos += word.len();
        Value::String(format!("\0{word}"))
    }

    /// An array or object (by `inner`), one level deeper.
    fn nested(
        &mut self,
        inner: fn(&mut Parser<'a>) -> Result<Value, ParseError>,
    ) -> Result<Value, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err("recursion limit exceeded"));
        }
        self.depth += 1;
        let v = inner(self);
        self.depth -= 1;
        v
    }

    /// After an item of a list closed by `close`: true at the end (the closer consumed), false
    /// after a comma (with a next item required).
    fn separator(&mut self, close: u8, what: &'static str) -> Result<bool, ParseError> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(close) {
                    return Err(self.err("trailing comma"));
                }
                Ok(false)
            }
            Some(c) if c == close => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) => Err(self.err(what)),
            None => Err(self.err(match close {
                b']' => "EOF while parsing a list",
                _ => "EOF while parsing an object",
            })),
        }
    }

    /// An array, at its `[`.
    fn array(&mut self) -> Result<Value, ParseError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            if self.peek().is_none() {
                return Err(self.err("EOF while parsing a list"));
            }
            items.push(self.value()?);
            if self.separator(b']', "expected `,` or `]`")? {
                return Ok(Value::Array(items));
            }
        }
    }

    /// An object, at its `{`.
    fn object(&mut self) -> Result<Value, ParseError> {
        self.pos += 1;
        let mut members = Map::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        loop {
            match self.peek() {
                Some(b'"') => {}
                Some(_) => return Err(self.err("key must be a string")),
                None => return Err(self.err("EOF while parsing an object")),
            }
            let key = self.string()?;
            self.skip_ws();
            match self.peek() {
                Some(b':') => self.pos += 1,
                Some(_) => return Err(self.err("expected `:`")),
                None => return Err(self.err("EOF while parsing an object")),
            }
            let v = self.value()?;
            members.insert(key, v);
            if self.separator(b'}', "expected `,` or `}`")? {
                return Ok(Value::Object(members));
            }
        }
    }

    /// A string, at its opening quote.
    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            let run = std::str::from_utf8(&self.b[start..self.pos])
                .map_err(|e| self.err_at("invalid unicode code point", start + e.valid_up_to()))?;
            out.push_str(run);
            match self.peek() {
                None => return Err(self.err("EOF while parsing a string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                Some(_) => {
                    return Err(self
                        .err("control character (\\u0000-\\u001F) found while parsing a string"))
                }
            }
        }
    }

    /// The character of an escape, after its backslash.
    fn escape(&mut self) -> Result<char, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.err("EOF while parsing a string"));
        };
        self.pos += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.err_at("invalid escape", self.pos - 1)),
        })
    }

    /// The character of a `\u` escape (after the `u`), joining a surrogate pair.
    fn unicode_escape(&mut self) -> Result<char, ParseError> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.b[self.pos..].starts_with(b"\\u") {
                    return Err(self.err("lone leading surrogate in hex escape"));
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.err_at("lone leading surrogate in hex escape", self.pos - 6));
                }
                0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00)
            }
            0xDC00..=0xDFFF => {
                return Err(self.err_at("lone trailing surrogate in hex escape", self.pos - 6))
            }
            n => u32::from(n),
        };
        char::from_u32(code).ok_or_else(|| self.err("invalid unicode code point"))
    }

    /// Four hexadecimal digits.
    fn hex4(&mut self) -> Result<u16, ParseError> {
        let mut n = 0u16;
        for _ in 0..4 {
            let d = match self.peek() {
                None => return Err(self.err("EOF while parsing a string")),
                Some(c) => (c as char)
                    .to_digit(16)
                    .ok_or_else(|| self.err("invalid escape"))?,
            };
            n = n * 16 + d as u16;
            self.pos += 1;
        }
        Ok(n)
    }

    /// Advances over ASCII digits; the number of them.
    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Integers are exact when
    /// they fit `u64` (or `i64` below zero), other numbers the nearest `f64`.
    fn number(&mut self) -> Result<Number, ParseError> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let int_start = self.pos;
        match self.digits() {
            0 => return Err(self.err("invalid number")),
            n if n > 1 && self.b[int_start] == b'0' => {
                return Err(self.err_at("invalid number", int_start + 1))
            }
            _ => {}
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.err("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            integer = false;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("invalid number"));
            }
        }
        // Only ASCII digits, signs, `.` and `e` were read.
        let text = std::str::from_utf8(&self.b[start..self.pos]).unwrap_or_default();
        if integer {
            let magnitude = &self.b[int_start..self.pos];
            let exact = std::str::from_utf8(magnitude)
                .ok()
                .and_then(|m| m.parse::<u64>().ok());
            match (negative, exact) {
                (false, Some(u)) => return Ok(Number::from_u64(u)),
                (true, Some(u)) if u != 0 && u <= 1 << 63 => {
                    return Ok(Number::from_i64((u as i64).wrapping_neg()))
                }
                _ => {}
            }
        }
        let f: f64 = text
            .parse()
            .map_err(|_| self.err_at("invalid number", start))?;
        Number::from_f64(f).ok_or_else(|| self.err_at("number out of range", start))
    }
}
