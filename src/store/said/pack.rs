//! How `said_texts` stores a text: compressed when that makes it smaller.

use crate::domain::transcript::said::Piece;

/// A piece's text as `said_texts` stores it: compressed (a BLOB) when
/// that is smaller, else as it is (TEXT). The piece was compressed where
/// it was read (`said::packed`), so the writer only copies bytes.
pub(super) fn pack(p: &Piece) -> rusqlite::types::ToSqlOutput<'_> {
    use rusqlite::types::{ToSqlOutput, ValueRef};
    ToSqlOutput::Borrowed(match &p.packed {
        Some(b) => ValueRef::Blob(b),
        None => ValueRef::Text(p.text.as_bytes()),
    })
}

/// A stored text as it was said (`pack`'s inverse; a text stored before
/// texts were packed is TEXT too).
pub(super) fn unpack(v: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<String> {
    use rusqlite::types::{FromSqlError, ValueRef};
    match v {
        ValueRef::Text(t) => Ok(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => crate::domain::transcript::said::unpacked(b).ok_or_else(|| {
            rusqlite::Error::FromSqlConversionFailure(
                0,
                rusqlite::types::Type::Blob,
                "a stored text that does not unpack".into(),
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
    use crate::domain::transcript::said::{Role, packed};
    use rusqlite::types::{ToSqlOutput, ValueRef};

    fn piece(text: &str) -> Piece {
        Piece {
            role: Role::Assistant,
            tool: None,
            output: false,
            text: text.to_string(),
            packed: packed(text),
        }
    }

    /// A long text is stored deflated and comes back as it was; a short
    /// one, or one that would not shrink, is stored as it is; a text
    /// stored before packing (TEXT) reads as itself.
    #[test]
    fn a_stored_text_comes_back_as_it_was_said() {
        let long = "cargo test --workspace; ".repeat(40);
        let stored = piece(&long);
        let ToSqlOutput::Borrowed(ValueRef::Blob(b)) = pack(&stored) else {
            panic!("a long repetitive text is compressed");
        };
        assert!(b.len() * 4 < long.len(), "{}", b.len());
        assert_eq!(unpack(ValueRef::Blob(b)).unwrap(), long);
        assert_eq!(
            pack(&piece("ls -la")),
            ToSqlOutput::Borrowed(ValueRef::Text(b"ls -la"))
        );
        let noise: String = (0..200u32)
            .map(|i| char::from_u32(0x4e00 + (i * 7919) % 20000).unwrap())
            .collect();
        let noisy = piece(&noise);
        match pack(&noisy) {
            ToSqlOutput::Borrowed(ValueRef::Text(t)) => assert_eq!(t, noise.as_bytes()),
            ToSqlOutput::Borrowed(ValueRef::Blob(b)) => {
                assert_eq!(unpack(ValueRef::Blob(b)).unwrap(), noise);
            }
            _ => unreachable!(),
        }
        assert_eq!(unpack(ValueRef::Text(b"as it was")).unwrap(), "as it was");
        assert!(unpack(ValueRef::Blob(b"not lz4")).is_err());
        // A stored length past any text is damage, never an allocation.
        assert!(unpack(ValueRef::Blob(&[0xff, 0xff, 0xff, 0x7f, 0])).is_err());
    }
}
