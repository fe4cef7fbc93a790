//! The domain's closed vocabularies as SQL text: written by name, read back
//! through their `parse` (a name the schema's CHECK let through but the
//! domain does not know is a conversion error, never a guess).

use rusqlite::ToSql;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};

use crate::domain::memory::{CommitmentStatus, Demand, EventKind, Kind, MemoryStatus};
use crate::domain::triage::TriageStatus;

macro_rules! sql_text {
    ($($t:ty),+) => {$(
        impl ToSql for $t {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $t {
            fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
                <$t>::parse(v.as_str()?).map_err(|e| FromSqlError::Other(e.into()))
            }
        }
    )+};
}

sql_text!(
    Kind,
    MemoryStatus,
    CommitmentStatus,
    EventKind,
    Demand,
    TriageStatus
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_go_in_and_come_back() {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        let k: Kind = c
            .query_row("SELECT ?1", [Kind::Blocker], |r| r.get(0))
            .unwrap();
        assert_eq!(k, Kind::Blocker);
        let e = c
            .query_row("SELECT 'todo'", [], |r| r.get::<_, Kind>(0))
            .unwrap_err();
        assert!(e.to_string().contains("unknown kind \"todo\""), "{e}");
    }
}
