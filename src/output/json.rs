//! Writing JSON directly, for the few listings whose rows are many: the
//! exact bytes `output::write_json` gives (serde_json's escapes: `\"`, `\\`, `\b`,
//! `\f`, `\n`, `\r`, `\t`, other bytes below 0x20 as `\u00XX`; nothing
//! else), tested equal to it.

use crate::domain::clock::{Millis, format_instant, instant_ascii};

/// `s` as a JSON string.
pub fn str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    // One pass without early exit (it vectorizes); almost every string
    // has nothing to escape and is copied whole.
    let plain = !b.iter().fold(false, |any, &c| {
        any | (c < 0x20) | (c == b'"') | (c == b'\\') | super::may_be_unsafe(c)
    });
    out.push(b'"');
    if plain {
        out.extend_from_slice(b);
    } else {
        let start = out.len();
        escaped(out, b);
        // DEL, C1, separators and bidi controls as escapes too
        // (`super::escape_unsafe`).
        if let std::borrow::Cow::Owned(e) = super::escape_unsafe(&out[start..]) {
            out.truncate(start);
            out.extend_from_slice(&e);
        }
    }
    out.push(b'"');
}

fn escaped(out: &mut Vec<u8>, b: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let short = match c {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x0c => b'f',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0..=0x1f => b'u',
            _ => continue,
        };
        out.extend_from_slice(&b[start..i]);
        start = i + 1;
        out.push(b'\\');
        out.push(short);
        if short == b'u' {
            out.extend_from_slice(b"00");
            out.push(HEX[usize::from(c >> 4)]);
            out.push(HEX[usize::from(c & 0xf)]);
        }
    }
    out.extend_from_slice(&b[start..]);
}

/// Whether `raw` is a JSON array of strings exactly as `serde_json` writes
/// it (no spaces, nothing escaped), so it can be copied as it is.
pub fn is_plain_string_array(raw: &str) -> bool {
    let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
        return false;
    };
    if inner.is_empty() {
        return true;
    }
    let b = inner.as_bytes();
    let mut i = 0;
    loop {
        if b.get(i) != Some(&b'"') {
            return false;
        }
        i += 1;
        while let Some(&c) = b.get(i) {
            if c == b'"' {
                break;
            }
            // DEL, a C1 control, a separator or a bidirectional control
            // is written escaped: such an array is not copied as it is.
            if c < 0x20 || c == b'\\' || super::may_be_unsafe(c) {
                return false;
            }
            i += 1;
        }
        if b.get(i) != Some(&b'"') {
            return false;
        }
        i += 1;
        match b.get(i) {
            None => return true,
            Some(b',') => i += 1,
            Some(_) => return false,
        }
    }
}

/// `s` as a JSON string, or `null`.
fn opt_str(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => str(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// An instant as `format_instant` writes it, quoted.
fn instant(out: &mut Vec<u8>, ms: Millis) {
    out.push(b'"');
    match instant_ascii(ms) {
        // ASCII digits already: no UTF-8 check on the hot path.
        Some(b) => out.extend_from_slice(&b),
        None => out.extend_from_slice(format_instant(ms).as_bytes()),
    }
    out.push(b'"');
}

/// A JSON object written field by field, in the order given (a caller
/// matching serde's output gives its struct's field order). Each key comes
/// as the bytes that precede its value, `,"name":`, made by `json_key!` at
/// compile time: one copy per field.
pub struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

/// `json_key!("name")` is `,"name":`, the form `Object` takes its keys in.
macro_rules! json_key {
    ($name:literal) => {
        concat!(",\"", $name, "\":")
    };
}
pub(crate) use json_key;

impl<'a> Object<'a> {
    pub fn new(out: &'a mut Vec<u8>) -> Object<'a> {
        out.push(b'{');
        Object { out, first: true }
    }

    #[inline]
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        debug_assert!(
            key.starts_with(",\"") && key.ends_with("\":"),
            "{key}: use json_key!"
        );
        let key = if std::mem::take(&mut self.first) {
            &key[1..]
        } else {
            key
        };
        self.out.extend_from_slice(key.as_bytes());
        self.out
    }

    #[inline]
    pub fn str(&mut self, key: &str, v: &str) {
        str(self.key(key), v);
    }

    #[inline]
    pub fn opt_str(&mut self, key: &str, v: Option<&str>) {
        opt_str(self.key(key), v);
    }

    #[inline]
    pub fn instant(&mut self, key: &str, ms: Millis) {
        instant(self.key(key), ms);
    }

    #[inline]
    pub fn opt_instant(&mut self, key: &str, ms: Option<Millis>) {
        match ms {
            Some(ms) => self.instant(key, ms),
            None => self.key(key).extend_from_slice(b"null"),
        }
    }

    #[inline]
    pub fn bool(&mut self, key: &str, v: bool) {
        let v: &[u8] = if v { b"true" } else { b"false" };
        self.key(key).extend_from_slice(v);
    }

    /// A value that is JSON already.
    pub fn raw(&mut self, key: &str, json: &[u8]) {
        self.key(key).extend_from_slice(json);
    }

    pub fn strs<'s>(&mut self, key: &str, items: impl IntoIterator<Item = &'s str>) {
        let out = self.key(key);
        out.push(b'[');
        for (i, t) in items.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            str(out, t);
        }
        out.push(b']');
    }

    /// A nested object, or `null`.
    pub fn object(&mut self, key: &str, fill: Option<impl FnOnce(&mut Object<'_>)>) {
        let out = self.key(key);
        match fill {
            Some(fill) => {
                let mut inner = Object::new(out);
                fill(&mut inner);
                inner.end();
            }
            None => out.extend_from_slice(b"null"),
        }
    }

    pub fn end(self) {
        self.out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// What `output::write_json` writes for `s`.
    fn as_written(s: &str) -> String {
        let mut out = Vec::new();
        super::super::write_json(&mut out, s, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn direct(s: &str) -> String {
        let mut out = Vec::new();
        super::str(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_escape_serde_json_makes() {
        for c in (0u8..0x80).map(char::from).chain([
            'é', '\u{2028}', '😀', '\u{7f}', '\u{202E}', '\u{2066}', '\u{61C}', '\u{200E}', 'â',
            '\u{2010}',
        ]) {
            let s = format!("a{c}b{c}");
            assert_eq!(direct(&s), as_written(&s), "{c:?}");
        }
        assert_eq!(direct(""), "\"\"");
    }

    #[test]
    fn plain_arrays_are_those_serde_json_writes_unchanged() {
        use super::is_plain_string_array as plain;
        for (raw, want) in [
            ("[]", true),
            ("[\"a\"]", true),
            ("[\"a\",\"b c\",\"\u{e9}\"]", true),
            ("[\"\"]", true),
            ("[ ]", false),
            ("[\"a\", \"b\"]", false),
            ("[\"a\\u00e9\"]", false),
            ("[\"a\\\"b\"]", false),
            ("[\"a\",]", false),
            ("[\"a\"", false),
            ("[\"a]", false),
            ("[1]", false),
            ("null", false),
            ("", false),
        ] {
            assert_eq!(plain(raw), want, "{raw}");
            if want {
                let v: Vec<String> = serde_json::from_str(raw).unwrap();
                assert_eq!(serde_json::to_string(&v).unwrap(), raw);
            }
        }
    }

    proptest! {
        #[test]
        fn plain_arrays_round_trip(tags in proptest::collection::vec(any::<String>(), 0..4)) {
            let raw = serde_json::to_string(&tags).unwrap();
            if super::is_plain_string_array(&raw) {
                let back: Vec<String> = serde_json::from_str(&raw).unwrap();
                prop_assert_eq!(serde_json::to_string(&back).unwrap(), raw);
            } else {
                prop_assert!(raw.contains('\\') || raw.bytes().any(super::super::may_be_unsafe));
            }
        }

        #[test]
        fn strings_equal_serde_json(s in any::<String>()) {
            prop_assert_eq!(direct(&s), as_written(&s));
        }

        #[test]
        fn instants_equal_the_formatter(ms in -80_000_000_000_000i64..300_000_000_000_000) {
            let mut out = Vec::new();
            super::instant(&mut out, ms);
            prop_assert_eq!(String::from_utf8(out).unwrap(), format!("\"{}\"", crate::domain::clock::format_instant(ms)));
        }
    }
}
