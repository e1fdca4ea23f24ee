//! Finds where an element of a JSON document sits in its text.
//!
//! Scene files are parsed in two steps: text to a `serde_json::Value`, then the
//! value to typed definitions and peng shapes. The second step knows *which*
//! element is wrong (a path like `shapes[2].shape.radius`) but not *where* it is
//! in the text, so this module walks the text along the path and returns the byte
//! offset of the element. It only runs on documents `serde_json` already accepted,
//! but it never panics on any input: it returns the deepest element it could find.

/// One step of a path into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// A member of an object.
    Key(String),
    /// An element of an array.
    Index(usize),
}

/// Formats a path as `shapes[2].shape.radius` (empty string for the root).
pub fn path_to_string(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// The byte offset of the element at `path`, or of its deepest existing ancestor
/// when the path leads nowhere (a missing field points at its object).
pub fn locate(text: &str, path: &[Seg]) -> usize {
    let mut c = Cursor {
        b: text.as_bytes(),
        pos: 0,
    };
    c.skip_ws();
    let mut best = c.pos;
    for seg in path {
        let found = match seg {
            Seg::Key(k) => c.find_member(k),
            Seg::Index(i) => c.find_element(*i),
        };
        match found {
            Some(p) => {
                best = p;
                c.pos = p;
            }
            None => break,
        }
    }
    best
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Reads a string starting at the opening quote and returns it decoded.
    fn read_string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        self.pos += 1;
        let mut raw = Vec::new();
        loop {
            let ch = self.peek()?;
            self.pos += 1;
            match ch {
                b'"' => break,
                b'\\' => {
                    let e = self.peek()?;
                    self.pos += 1;
                    match e {
                        b'n' => raw.push(b'\n'),
                        b't' => raw.push(b'\t'),
                        b'r' => raw.push(b'\r'),
                        b'b' => raw.push(8),
                        b'f' => raw.push(12),
                        b'u' => {
                            let hex = self.b.get(self.pos..self.pos + 4)?;
                            self.pos += 4;
                            let code =
                                u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            raw.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        other => raw.push(other),
                    }
                }
                other => raw.push(other),
            }
        }
        Some(String::from_utf8_lossy(&raw).into_owned())
    }

    /// Skips one value of any kind starting at the cursor.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.read_string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.read_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.pos += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            _ => {
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.pos += 1;
                }
            }
        }
        Some(())
    }

    /// With the cursor on an object, the offset of the value of member `key`.
    fn find_member(&mut self, key: &str) -> Option<usize> {
        if self.peek() != Some(b'{') {
            return None;
        }
        self.pos += 1;
        loop {
            self.skip_ws();
            if self.peek()? == b'}' {
                return None;
            }
            let k = self.read_string()?;
            self.skip_ws();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.skip_ws();
            if k == key {
                return Some(self.pos);
            }
            self.skip_value()?;
            self.skip_ws();
            if self.peek()? == b',' {
                self.pos += 1;
            }
        }
    }

    /// With the cursor on an array, the offset of element `index`.
    fn find_element(&mut self, index: usize) -> Option<usize> {
        if self.peek() != Some(b'[') {
            return None;
        }
        self.pos += 1;
        let mut i = 0;
        loop {
            self.skip_ws();
            if self.peek()? == b']' {
                return None;
            }
            if i == index {
                return Some(self.pos);
            }
            self.skip_value()?;
            self.skip_ws();
            if self.peek()? == b',' {
                self.pos += 1;
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Seg {
        Seg::Key(k.to_string())
    }

    const DOC: &str =
        "{\n  \"a\": [1, {\"b\": \"x]\\\"}\"}, {\"c\": 2.5}],\n  \"d\\u0065\": {\"f\": null}\n}";

    #[test]
    fn finds_nested_elements() {
        let p = locate(DOC, &[key("a"), Seg::Index(2), key("c")]);
        assert_eq!(&DOC[p..p + 3], "2.5");
        assert_eq!(line_col(DOC, p), (2, 34));
        // Escaped key "de" and a string containing brackets and quotes before it.
        let p = locate(DOC, &[key("de"), key("f")]);
        assert_eq!(&DOC[p..p + 4], "null");
        assert_eq!(line_col(DOC, p).0, 3);
    }

    #[test]
    fn missing_element_gives_the_deepest_ancestor() {
        let p = locate(DOC, &[key("a"), Seg::Index(1), key("zzz")]);
        assert_eq!(&DOC[p..p + 5], "{\"b\":");
        let p = locate(DOC, &[key("a"), Seg::Index(7)]);
        assert_eq!(DOC.as_bytes()[p], b'[');
        assert_eq!(locate(DOC, &[]), 0);
    }

    #[test]
    fn never_panics_on_garbage() {
        for text in [
            "",
            "{",
            "[",
            "{\"a\"",
            "{\"a\":",
            "[1,",
            "\"\\u12",
            "{\"a\": [1, 2",
        ] {
            let _ = locate(text, &[key("a"), Seg::Index(1), key("b")]);
            let _ = line_col(text, 1000);
        }
    }

    #[test]
    fn formats_paths() {
        let p = [key("shapes"), Seg::Index(2), key("shape"), key("radius")];
        assert_eq!(path_to_string(&p), "shapes[2].shape.radius");
        assert_eq!(path_to_string(&[]), "");
    }
}
