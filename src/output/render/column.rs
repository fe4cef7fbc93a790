//! A table's or CSV's column: its key, header, and how a fitted table
//! treats it.

/// A column of a table or CSV: which key, under which header, and how
/// readily a table too wide for the terminal leaves it out (0: never; the
/// highest goes first).
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub key: &'static str,
    pub header: &'static str,
    pub drop: u8,
    /// Prose shown on one line, cut at the column's width with `…`
    /// (a title), never wrapped.
    pub cut: bool,
    /// A name shown whole, never cut to a prefix as an id of the same key
    /// would be (a run's `agent` is its client's name).
    pub name: bool,
}

pub const fn col(key: &'static str, header: &'static str) -> Column {
    Column {
        key,
        header,
        drop: 0,
        cut: false,
        name: false,
    }
}

impl Column {
    /// The same column, its cells one line each in a fitted table, cut
    /// with `…` where the column is narrower than them.
    pub const fn one_line(self) -> Column {
        Column { cut: true, ..self }
    }

    /// The same column, its cells names shown whole (never shortened as
    /// ids).
    pub const fn named(self) -> Column {
        Column { name: true, ..self }
    }

    /// The same column, left out of a fitted table before those with a
    /// lower rank (`--wide` and every machine format keep it).
    pub const fn optional(self, rank: u8) -> Column {
        Column { drop: rank, ..self }
    }
}
