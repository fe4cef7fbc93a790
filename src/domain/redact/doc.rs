//! A tool call's input read for its redacted strings without building a
//! `serde_json::Value`: its strings are borrowed from the input where
//! they hold no escape, and an object's entries are kept in a list,
//! ordered and de-duplicated as `serde_json::Map` orders them (by key; a
//! key given twice keeps its last value). Only the common shapes are read
//! this way; an input with a key that is itself a secret or names one
//! (`password`, `api_key`) is left to `redacted_strings` over a `Value`,
//! so the strings are the same either way.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::json::{
    STRUCTURAL, high_entropy, is_keylike_key, is_secret_key, normalise_key, push_unblank,
};
use super::{is_whole_marker, marker, redact_text};

/// A JSON value, its strings borrowed where they can be.
#[derive(Debug)]
pub enum Doc<'a> {
    Str(Cow<'a, str>),
    Arr(Vec<Doc<'a>>),
    /// Entries by key, each key once (its last value).
    Obj(Vec<(Cow<'a, str>, Doc<'a>)>),
    /// A number, a boolean or null: no strings.
    Other,
}

impl<'de> Deserialize<'de> for Doc<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Doc<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Doc<'de>, E> {
                Ok(Doc::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Doc<'de>, E> {
                Ok(Doc::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Doc<'de>, E> {
                Ok(Doc::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Doc<'de>, E> {
                Ok(Doc::Other)
            }
            fn visit_unit<E>(self) -> Result<Doc<'de>, E> {
                Ok(Doc::Other)
            }
            fn visit_none<E>(self) -> Result<Doc<'de>, E> {
                Ok(Doc::Other)
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Doc<'de>, E> {
                Ok(Doc::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Doc<'de>, E> {
                Ok(Doc::Str(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Doc<'de>, E> {
                Ok(Doc::Str(Cow::Owned(s)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Doc::Arr(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc<'de>, A::Error> {
                let mut entries: Vec<(Cow<'de, str>, Doc<'de>)> = Vec::new();
                // serde_json reads a key as a string, borrowed where it can.
                while let Some(key) = map.next_key::<Doc<'de>>()? {
                    let Doc::Str(k) = key else {
                        return Err(serde::de::Error::custom("a key that is not a string"));
                    };
                    entries.push((k, map.next_value()?));
                }
                // As `serde_json::Map` holds them: by key, the last of a
                // key given twice (a stable sort keeps their order).
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                let mut kept: Vec<(Cow<'de, str>, Doc<'de>)> = Vec::with_capacity(entries.len());
                for e in entries {
                    match kept.last_mut() {
                        Some(last) if last.0 == e.0 => *last = e,
                        _ => kept.push(e),
                    }
                }
                Ok(Doc::Obj(kept))
            }
        }
        d.deserialize_any(V)
    }
}

/// `redacted_strings` of the value `doc` is, read from `doc` itself;
/// `false` (and `out` as it was) when the value holds a key this reading
/// leaves to `redacted_strings`.
pub fn doc_strings<'a>(doc: &'a Doc<'a>, out: &mut Vec<Cow<'a, str>>) -> bool {
    let start = out.len();
    let read = walk(doc, out);
    if !read {
        out.truncate(start);
    }
    read
}

fn walk<'a>(doc: &'a Doc<'a>, out: &mut Vec<Cow<'a, str>>) -> bool {
    match doc {
        Doc::Str(s) => {
            push_unblank(out, redact_text(s));
            true
        }
        Doc::Arr(items) => items.iter().all(|i| walk(i, out)),
        Doc::Obj(entries) => {
            for (k, v) in entries {
                let norm = normalise_key(k);
                if STRUCTURAL.contains(&&*norm) {
                    plain(v, out);
                    continue;
                }
                if is_secret_key(&norm) || matches!(redact_text(k), Cow::Owned(_)) {
                    return false;
                }
                match v {
                    Doc::Str(s) if is_whole_marker(s) => push_unblank(out, Cow::Borrowed(s)),
                    Doc::Str(s) if is_keylike_key(&norm) && high_entropy(s) => {
                        out.push(Cow::Owned(marker("high-entropy", s.len())));
                    }
                    v => {
                        if !walk(v, out) {
                            return false;
                        }
                    }
                }
            }
            true
        }
        Doc::Other => true,
    }
}

/// The strings of `doc` (not blank), as they are.
fn plain<'a>(doc: &'a Doc<'a>, out: &mut Vec<Cow<'a, str>>) {
    match doc {
        Doc::Str(s) => push_unblank(out, Cow::Borrowed(s)),
        Doc::Arr(items) => items.iter().for_each(|i| plain(i, out)),
        Doc::Obj(entries) => entries.iter().for_each(|(_, v)| plain(v, out)),
        Doc::Other => {}
    }
}
