//! How `said_texts` stores a text: deflated when that makes it smaller.

/// Texts shorter than this are stored as they are: deflating them gains
/// nothing.
const PACK_FROM: usize = 128;

/// A text as `said_texts` stores it: deflated (a BLOB) when that is
/// smaller, else as it is (TEXT). Deterministic: the same text is stored
/// the same way.
pub(super) fn pack(text: &str) -> rusqlite::types::Value {
    use rusqlite::types::Value;
    if text.len() >= PACK_FROM {
        let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 1);
        if packed.len() < text.len() {
            return Value::Blob(packed);
        }
    }
    Value::Text(text.to_string())
}

/// A stored text as it was said (`pack`'s inverse; a text stored before
/// texts were packed is TEXT too).
pub(super) fn unpack(v: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<String> {
    use rusqlite::types::{FromSqlError, ValueRef};
    match v {
        ValueRef::Text(t) => Ok(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => miniz_oxide::inflate::decompress_to_vec(b)
            .ok()
            .and_then(|raw| String::from_utf8(raw).ok())
            .ok_or_else(|| {
                rusqlite::Error::FromSqlConversionFailure(
                    0,
                    rusqlite::types::Type::Blob,
                    "a stored text that does not inflate".into(),
                )
            }),
        _ => Err(rusqlite::Error::FromSqlConversionFailure(
            0,
            v.data_type(),
            Box::new(FromSqlError::InvalidType),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::types::{Value, ValueRef};

    /// A long text is stored deflated and comes back as it was; a short
    /// one, or one that would not shrink, is stored as it is; a text
    /// stored before packing (TEXT) reads as itself.
    #[test]
    fn a_stored_text_comes_back_as_it_was_said() {
        let long = "cargo test --workspace; ".repeat(40);
        let Value::Blob(b) = pack(&long) else {
            panic!("a long repetitive text is deflated");
        };
        assert!(b.len() * 4 < long.len(), "{}", b.len());
        assert_eq!(unpack(ValueRef::Blob(&b)).unwrap(), long);
        assert_eq!(pack("ls -la"), Value::Text("ls -la".into()));
        let noise: String = (0..200u32)
            .map(|i| char::from_u32(0x4e00 + (i * 7919) % 20000).unwrap())
            .collect();
        match pack(&noise) {
            Value::Text(t) => assert_eq!(t, noise),
            Value::Blob(b) => assert_eq!(unpack(ValueRef::Blob(&b)).unwrap(), noise),
            _ => unreachable!(),
        }
        assert_eq!(unpack(ValueRef::Text(b"as it was")).unwrap(), "as it was");
        assert!(unpack(ValueRef::Blob(b"not deflate")).is_err());
    }
}
