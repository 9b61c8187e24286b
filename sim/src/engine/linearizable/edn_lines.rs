//! The small reader under history import: one line of a Jepsen-style history (an EDN map) or of its
//! JSON-lines twin, read into a flat list of keys and values.
//!
//! Jepsen writes a history as one EDN map per line, `{:process 0, :type :invoke, :f :write, :value 3}`;
//! tools that prefer JSON write the same fields as `{"process": 0, "type": "invoke", ...}`. Both are
//! read here by one tokenizer: a colon followed by a letter starts a keyword (`:invoke`), any other
//! colon separates a JSON key from its value; commas are whitespace, as in EDN. A value is a whole
//! number, a keyword, a string, `nil`/`null`, `true`/`false`, or a vector or map of values (Jepsen's
//! `:error` fields hold such things; they are read and dropped).
//!
//! Every error carries the 1-based column where it was found; the caller adds the line. Reading is
//! linear in the line, nesting is capped at [`MAX_DEPTH`] and strings may not span lines, so no input
//! can make it loop or recurse without end.

/// Deepest nesting of vectors and maps read inside a line's map.
pub const MAX_DEPTH: usize = 8;

/// One value of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Integer(i128),
    /// A keyword without its colon, or a string: the two mean the same in this format.
    Word(String),
    Nil,
    Bool(bool),
    Vector(Vec<Value>),
    /// A nested map, kept only so its text is read past.
    Map,
}

/// A reading error: what went wrong, at which 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub column: usize,
    pub message: String,
}

fn error<T>(column: usize, message: impl Into<String>) -> Result<T, LineError> {
    Err(LineError {
        column,
        message: message.into(),
    })
}

/// The line's map as (key, value, column of the value) in file order.
pub fn read_map(line: &str) -> Result<Vec<(String, Value, usize)>, LineError> {
    let mut reader = Reader {
        chars: line.chars().collect(),
        place: 0,
    };
    reader.skip_space();
    if reader.peek() != Some('{') {
        return error(reader.column(), "a line must be one map, starting with `{`");
    }
    reader.place += 1;
    let fields = reader.map_fields(0)?;
    reader.skip_space();
    if reader.peek().is_some() {
        return error(reader.column(), "text after the map's closing `}`");
    }
    Ok(fields)
}

struct Reader {
    chars: Vec<char>,
    place: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.place).copied()
    }

    fn column(&self) -> usize {
        self.place + 1
    }

    fn skip_space(&mut self) {
        while self
            .peek()
            .is_some_and(|next| next.is_whitespace() || next == ',')
        {
            self.place += 1;
        }
    }

    /// Fields up to the closing `}` (the opening one already read).
    fn map_fields(&mut self, depth: usize) -> Result<Vec<(String, Value, usize)>, LineError> {
        let mut fields = Vec::new();
        loop {
            self.skip_space();
            let column = self.column();
            match self.peek() {
                Some('}') => {
                    self.place += 1;
                    return Ok(fields);
                }
                None => return error(column, "the map is not closed with `}`"),
                _ => {}
            }
            let key = match self.value(depth)? {
                Value::Word(key) => key,
                _ => return error(column, "a map key must be a keyword such as `:type`"),
            };
            self.skip_space();
            let keyword_follows = self
                .chars
                .get(self.place + 1)
                .is_some_and(|next| next.is_alphabetic());
            if self.peek() == Some(':') && !keyword_follows {
                self.place += 1;
                self.skip_space();
            }
            if matches!(self.peek(), Some('}') | None) {
                return error(
                    self.column(),
                    format!("the key `{}` has no value", short(&key)),
                );
            }
            let value_column = self.column();
            let value = self.value(depth)?;
            fields.push((key, value, value_column));
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, LineError> {
        let column = self.column();
        match self.peek() {
            Some('[') => self.vector(depth + 1),
            Some('{') => {
                if depth + 1 > MAX_DEPTH {
                    return error(column, format!("nested deeper than {MAX_DEPTH} levels"));
                }
                self.place += 1;
                self.map_fields(depth + 1).map(|_| Value::Map)
            }
            Some('"') => self.string().map(Value::Word),
            Some(':') => {
                self.place += 1;
                let word = self.word();
                if word.is_empty() {
                    return error(column, "a keyword needs a name after its `:`");
                }
                Ok(Value::Word(word))
            }
            Some(next) if next == '-' || next.is_ascii_digit() => self.integer(),
            Some(next) if next.is_alphabetic() => match self.word().as_str() {
                "nil" | "null" => Ok(Value::Nil),
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                other => error(
                    column,
                    format!(
                        "`{}` is no value: write a number, :keyword, \"string\" or nil",
                        short(other)
                    ),
                ),
            },
            Some(other) => error(
                column,
                format!("unexpected `{}`", short(&other.to_string())),
            ),
            None => error(column, "the line ends where a value was expected"),
        }
    }

    fn vector(&mut self, depth: usize) -> Result<Value, LineError> {
        let column = self.column();
        if depth > MAX_DEPTH {
            return error(column, format!("nested deeper than {MAX_DEPTH} levels"));
        }
        self.place += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(']') => {
                    self.place += 1;
                    return Ok(Value::Vector(items));
                }
                None => return error(column, "the vector is not closed with `]`"),
                _ => items.push(self.value(depth)?),
            }
        }
    }

    fn word(&mut self) -> String {
        let start = self.place;
        while self.peek().is_some_and(|next| {
            next.is_alphanumeric() || matches!(next, '-' | '_' | '/' | '.' | '?' | '!' | '*')
        }) {
            self.place += 1;
        }
        self.chars[start..self.place].iter().collect()
    }

    fn string(&mut self) -> Result<String, LineError> {
        let column = self.column();
        self.place += 1;
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return error(column, "the string is not closed with `\"`"),
                Some('"') => {
                    self.place += 1;
                    return Ok(text);
                }
                Some('\\') => {
                    self.place += 1;
                    match self.peek() {
                        Some(escaped) => text.push(escaped),
                        None => return error(column, "the string is not closed with `\"`"),
                    }
                    self.place += 1;
                }
                Some(next) => {
                    text.push(next);
                    self.place += 1;
                }
            }
        }
    }

    fn integer(&mut self) -> Result<Value, LineError> {
        let column = self.column();
        let start = self.place;
        if self.peek() == Some('-') {
            self.place += 1;
        }
        while self.peek().is_some_and(|next| next.is_ascii_digit()) {
            self.place += 1;
        }
        if self
            .peek()
            .is_some_and(|next| next == '.' || next == 'e' || next == 'E')
        {
            return error(column, "numbers must be whole");
        }
        let text: String = self.chars[start..self.place].iter().collect();
        match text.parse::<i128>() {
            Ok(number) if text.len() <= 30 => Ok(Value::Integer(number)),
            _ => error(column, "not a whole number of at most 30 digits"),
        }
    }
}

/// At most 40 characters of `text`, for quoting it in an error, with control characters escaped
/// (`\u{7f}`) so the error stays one printable line.
pub fn short(text: &str) -> String {
    let printable = |character: char| -> String {
        match character.is_control() {
            true => character.escape_default().collect(),
            false => character.to_string(),
        }
    };
    let head: String = text.chars().take(40).map(printable).collect();
    match text.chars().count() <= 40 {
        true => head,
        false => format!("{head}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edn_and_json_lines_read_alike() {
        let edn = read_map("{:process 0, :type :invoke, :f :write, :value [1 17]}").unwrap();
        let json = read_map(r#"{"process": 0, "type": "invoke", "f": "write", "value": [1, 17]}"#)
            .unwrap();
        let strip = |fields: Vec<(String, Value, usize)>| -> Vec<(String, Value)> {
            fields
                .into_iter()
                .map(|(key, value, _)| (key, value))
                .collect()
        };
        assert_eq!(strip(edn.clone()), strip(json));
        assert_eq!(
            edn[3].1,
            Value::Vector(vec![Value::Integer(1), Value::Integer(17)])
        );
        let nested =
            read_map("{:type :fail, :error [:not-leader {:hint \"n2\"}], :value nil}").unwrap();
        assert_eq!(nested[2].1, Value::Nil);
    }

    #[test]
    fn a_control_character_is_quoted_escaped() {
        let error = read_map("{:e\u{7f}").unwrap_err().message;
        assert!(error.contains("\\u{7f}"), "{error}");
        assert!(!error.chars().any(char::is_control), "{error}");
    }

    #[test]
    fn each_error_names_its_column() {
        let cases = [
            ("[:process 0]", 1, "one map"),
            ("{:process 0", 12, "not closed"),
            ("{:process 0.5}", 11, "whole"),
            ("{:process}", 10, "no value"),
            ("{:value \"open}", 9, "string"),
            ("{:a [[[[[[[[[1]]]]]]]]]}", 13, "deeper"),
            ("{:type :ok} x", 13, "after the map"),
            ("{:type maybe}", 8, "no value"),
        ];
        for (line, column, words) in cases {
            let found = read_map(line).expect_err(line);
            assert_eq!(found.column, column, "{line}: {found:?}");
            assert!(found.message.contains(words), "{line}: {}", found.message);
        }
    }
}
