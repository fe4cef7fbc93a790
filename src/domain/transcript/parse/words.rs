//! What a Claude Code record says: its words kept for search, or its
//! prompt offered as the session's title; and a title record's title.

use super::SessionParser;
use super::block::BlockRead;
use crate::domain::clock::parse_instant;
use crate::domain::transcript::TitleRank;
use crate::domain::transcript::said::{self, Piece, SaidOptions};
use crate::domain::transcript::scan;
use crate::domain::transcript::wire::Record;

/// What record `slot` (line `n`) says, kept when the parser reads what
/// records say, else offered as the session's title when it may be its
/// first prompt; `found` is the content's raw text and blocks where the
/// scanner found them.
pub(super) fn said_in<'a>(
    b: &mut SessionParser,
    st: &mut BlockRead<'a>,
    n: u64,
    line: &[u8],
    slot: &Record<'_>,
    (content, blocks): (Option<&[u8]>, Option<&[scan::ContentBlock<'_>]>),
) {
    if let Some(opts) = b.said
        && matches!(slot.kind.as_deref(), Some("user" | "assistant"))
    {
        let pieces = said_of(slot, line, content, blocks, opts);
        let record = slot
            .uuid
            .as_deref()
            .map_or_else(|| format!("line:{n}"), str::to_string);
        let at = slot.timestamp.as_deref().and_then(parse_instant);
        if st.main && slot.is_sidechain == Some(true) {
            if let Some(side) = st.side.last_mut() {
                side.said = Some((record, pieces));
            }
        } else {
            b.keep_said(st.agent, record, at, pieces);
        }
    } else if st.main
        && slot.is_sidechain != Some(true)
        && slot.kind.as_deref() == Some("user")
        && n <= TITLE_LINES
        && b.wants_prompt_title()
    {
        let pieces = said_of(slot, line, content, blocks, SaidOptions::default());
        b.offer_prompt(&pieces);
    }
}

/// How far into a main transcript its first prompt is looked for.
const TITLE_LINES: u64 = 1000;

/// A title record's title: the name the person gave the session
/// (`custom-title`, `customTitle`, from `/rename`) or the one Claude Code
/// made (`ai-title`, `aiTitle`); the latest of each counts.
pub(super) fn named(b: &mut SessionParser, kind: Option<&str>, line: &[u8]) {
    let (key, rank) = match kind {
        Some("custom-title") => ("customTitle", TitleRank::Named),
        Some("ai-title") => ("aiTitle", TitleRank::Client),
        _ => return,
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
        return;
    };
    if let Some(t) = v[key].as_str() {
        b.offer_title(t, rank);
    }
}

/// What a Claude Code user or assistant record says: from its content's
/// blocks where the scanner found them, else its raw text where the
/// scanner found it, or kept by serde, or (a line serde read without it)
/// from the line read again.
fn said_of(
    rec: &Record<'_>,
    line: &[u8],
    content: Option<&[u8]>,
    blocks: Option<&[scan::ContentBlock<'_>]>,
    opts: SaidOptions,
) -> Vec<Piece> {
    let assistant = rec.kind.as_deref() == Some("assistant");
    if let Some(c) = content
        && let Some(pieces) = blocks.and_then(|b| said::claude_blocks(b, assistant, opts))
    {
        // Content that is not UTF-8 throughout says nothing (serde keeps
        // no words of it either): checked only when there are words, so
        // the tool output most lines hold is not read again.
        return if pieces.is_empty() || std::str::from_utf8(c).is_ok() {
            pieces
        } else {
            Vec::new()
        };
    }
    let raw = content.and_then(|c| std::str::from_utf8(c).ok());
    let raw = raw.or_else(|| {
        rec.message
            .as_ref()
            .and_then(|m| m.content.0)
            .map(serde_json::value::RawValue::get)
    });
    if let Some(raw) = raw {
        return said::claude_content(raw, assistant, opts);
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
        return Vec::new();
    };
    said::claude_line(&v, 0, opts)
        .into_iter()
        .flat_map(|(_, _, p)| p)
        .collect()
}
