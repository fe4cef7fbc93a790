//! A JSON document that keeps its keys in the order its file had them, so a
//! settings file sessionkit edits changes only where sessionkit changed it.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// One JSON value; an object is its members in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn object() -> Json {
        Json::Object(Vec::new())
    }

    pub fn str(s: &str) -> Json {
        Json::String(s.to_string())
    }

    pub fn num(n: u64) -> Json {
        Json::Number(n.into())
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn members(&self) -> Option<&[(String, Json)]> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn members_mut(&mut self) -> Option<&mut Vec<(String, Json)>> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.members()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        self.members_mut()?
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The member `key`, added last (as `value`) when the object has none.
    /// `None` when `self` is not an object.
    pub fn entry(&mut self, key: &str, value: impl FnOnce() -> Json) -> Option<&mut Json> {
        let members = self.members_mut()?;
        let at = if let Some(i) = members.iter().position(|(k, _)| k == key) {
            i
        } else {
            members.push((key.to_string(), value()));
            members.len() - 1
        };
        Some(&mut members[at].1)
    }

    /// Sets `key` (in place when present, last otherwise).
    pub fn set(&mut self, key: &str, value: Json) {
        if let Some(slot) = self.entry(key, || Json::Null) {
            *slot = value;
        }
    }

    /// Removes `key`; whether it was there.
    pub fn remove(&mut self, key: &str) -> bool {
        let Some(members) = self.members_mut() else {
            return false;
        };
        let before = members.len();
        members.retain(|(k, _)| k != key);
        members.len() != before
    }

    /// Parses `text` strictly (no comments, no trailing commas: what the
    /// clients' own parsers accept). A repeated key keeps its first place
    /// and its last value, as JavaScript's `JSON.parse` does.
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Pretty text with `indent` (the file's own), ending in a newline.
    pub fn render(&self, indent: &[u8]) -> String {
        let mut out = Vec::new();
        let fmt = serde_json::ser::PrettyFormatter::with_indent(indent);
        let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
        self.serialize(&mut ser)
            .expect("an in-memory JSON value always serializes");
        let mut s = String::from_utf8(out).expect("serde_json writes UTF-8");
        s.push('\n');
        s
    }
}

/// The indentation a file uses: its first indented line's leading
/// whitespace, else two spaces.
pub fn indent_of(text: &str) -> Vec<u8> {
    text.lines()
        .skip(1)
        .map(|l| &l[..l.len() - l.trim_start().len()])
        .find(|w| !w.is_empty())
        .unwrap_or("  ")
        .as_bytes()
        .to_vec()
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::String(v) => s.serialize_str(v),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            match members.iter_mut().find(|(key, _)| *key == k) {
                Some(slot) => slot.1 = v,
                None => members.push((k, v)),
            }
        }
        Ok(Json::Object(members))
    }
}

/// `doc["key"]`: the member, or `Null` when there is none (as serde_json's).
impl std::ops::Index<&str> for Json {
    type Output = Json;
    fn index(&self, key: &str) -> &Json {
        static NULL: Json = Json::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

/// `doc[i]`: the item, or `Null`.
impl std::ops::Index<usize> for Json {
    type Output = Json;
    fn index(&self, i: usize) -> &Json {
        static NULL: Json = Json::Null;
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_numbers_through_a_round_trip() {
        let text = "{\n    \"z\": 1,\n    \"a\": [true, null, 2.5, \"s\"],\n    \"m\": {\"y\": {}, \"b\": []}\n}\n";
        let doc = Json::parse(text).unwrap();
        let out = doc.render(&indent_of(text));
        assert_eq!(
            out,
            "{\n    \"z\": 1,\n    \"a\": [\n        true,\n        null,\n        2.5,\n        \"s\"\n    ],\n    \"m\": {\n        \"y\": {},\n        \"b\": []\n    }\n}\n"
        );
        assert_eq!(Json::parse(&out).unwrap(), doc);
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_last_value() {
        let doc = Json::parse(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(doc.render(b""), "{\n\"a\": 3,\n\"b\": 2\n}\n");
    }

    #[test]
    fn comments_and_trailing_commas_do_not_parse() {
        assert!(Json::parse("{\"a\":1,}").is_err());
        assert!(Json::parse("{// c\n\"a\":1}").is_err());
    }

    #[test]
    fn entry_set_and_remove_keep_the_other_members_in_place() {
        let mut doc = Json::parse(r#"{"a":1,"b":2}"#).unwrap();
        doc.set("a", Json::num(9));
        doc.entry("c", || Json::num(3));
        assert!(doc.remove("b"));
        assert!(!doc.remove("b"));
        assert_eq!(doc.render(b" "), "{\n \"a\": 9,\n \"c\": 3\n}\n");
        assert_eq!(indent_of("{\n\t\"a\": 1\n}"), b"\t");
        assert_eq!(indent_of("{}"), b"  ");
    }
}
