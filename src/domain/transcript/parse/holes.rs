//! Runs of long lines that say nothing to the search index (a tool's
//! output, a model's reasoning), noted where ingest reads them so that a
//! later build of the index reads around them: most of a Claude Code
//! transcript's bytes are such lines, and the build only needs the words.

use serde::{Deserialize, Serialize};

use super::SessionParser;
use crate::domain::transcript::said;
use crate::domain::transcript::scan::ContentBlock;
use crate::domain::transcript::wire::Record;

/// Lines shorter than this are read however little they say: skipping one
/// costs a seek and a read of its own, about what scanning it costs.
pub(crate) const HOLE_MIN: u64 = if cfg!(test) { 256 } else { 4 << 10 };

/// Whole lines of a file that say nothing with tool outputs left out of
/// the index: they start at byte `at` (a line start, never the file's
/// first line), span `len` bytes (line endings included) and `lines`
/// lines. Kept as `[at, len, lines]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u64; 3]", into = "[u64; 3]")]
pub struct Hole {
    pub at: u64,
    pub len: u64,
    pub lines: u64,
}

impl From<[u64; 3]> for Hole {
    fn from([at, len, lines]: [u64; 3]) -> Hole {
        Hole { at, len, lines }
    }
}

impl From<Hole> for [u64; 3] {
    fn from(h: Hole) -> [u64; 3] {
        [h.at, h.len, h.lines]
    }
}

impl Hole {
    pub fn end(&self) -> u64 {
        self.at + self.len
    }
}

/// Notes the line at byte `at` of `len` bytes as saying nothing: it joins
/// the hole it follows directly, or starts one.
pub(super) fn note(holes: &mut Vec<Hole>, at: u64, len: u64) {
    match holes.last_mut() {
        Some(h) if h.end() == at => {
            h.len += len;
            h.lines += 1;
        }
        _ => holes.push(Hole { at, len, lines: 1 }),
    }
}

/// Where a block's lines lie, for noting holes: the file, the address of
/// the block's first line and that line's offset in the file.
pub(super) struct Noting {
    pub(super) file: usize,
    pub(super) origin: usize,
    pub(super) at: u64,
}

impl Noting {
    /// Notes `line` (`len` bytes with its ending), one of the block's, as
    /// saying nothing.
    pub(super) fn note(&self, b: &mut SessionParser, line: &[u8], len: u64) {
        let at = self.at + (line.as_ptr() as usize - self.origin) as u64;
        note(&mut b.out.files[self.file].holes, at, len);
    }
}

/// Whether Claude Code record `rec` (of the main file when `main`) says
/// nothing to the index with tool outputs left out: a record that is not
/// a prompt or an answer, or one whose content's `blocks` (the scanner's)
/// hold no text and no tool call. An inline sidechain record always says
/// something: its agent is found from the chain of such records.
pub(super) fn says_nothing(
    rec: &Record<'_>,
    blocks: Option<&[ContentBlock<'_>]>,
    main: bool,
) -> bool {
    if main && rec.is_sidechain == Some(true) {
        return false;
    }
    match rec.kind.as_deref() {
        Some("user" | "assistant") => blocks.is_some_and(said::claude_blocks_say_nothing),
        _ => true,
    }
}

/// A hole left out of the bytes a block of lines is read from: where in
/// those bytes it was (right after a line's end), and the hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    pub pos: usize,
    pub hole: Hole,
}

/// The gaps of a run of bytes that lines are read from, taken as the
/// reading passes them: the lines and bytes they held.
#[derive(Debug, Default)]
pub(super) struct Gaps {
    gaps: Vec<Gap>,
    next: usize,
    /// Bytes of the gaps passed so far.
    pub(super) skipped: u64,
}

impl Gaps {
    /// `gaps`, positions counted from `from` (those before it are not
    /// these bytes'), up to `to` (exclusive; `usize::MAX` for all).
    pub(super) fn between(gaps: &[Gap], from: usize, to: usize) -> Gaps {
        Gaps {
            gaps: gaps
                .iter()
                .filter(|g| g.pos >= from && g.pos < to)
                .map(|g| Gap {
                    pos: g.pos - from,
                    hole: g.hole,
                })
                .collect(),
            next: 0,
            skipped: 0,
        }
    }

    /// Passes the gaps at or before `pos` (a line start): the lines they
    /// held.
    pub(super) fn pass(&mut self, pos: usize) -> u64 {
        let mut lines = 0;
        while let Some(g) = self.gaps.get(self.next).filter(|g| g.pos <= pos) {
            lines += g.hole.lines;
            self.skipped += g.hole.len;
            self.next += 1;
        }
        lines
    }

    pub(super) fn is_empty(&self) -> bool {
        self.gaps.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hole_joins_the_one_it_follows_directly() {
        let mut holes = Vec::new();
        note(&mut holes, 10, 5);
        note(&mut holes, 15, 7);
        note(&mut holes, 30, 4);
        assert_eq!(
            holes,
            [
                Hole {
                    at: 10,
                    len: 12,
                    lines: 2
                },
                Hole {
                    at: 30,
                    len: 4,
                    lines: 1
                }
            ]
        );
        let json = serde_json::to_string(&holes).unwrap();
        assert_eq!(json, "[[10,12,2],[30,4,1]]");
        assert_eq!(serde_json::from_str::<Vec<Hole>>(&json).unwrap(), holes);
    }

    #[test]
    fn gaps_are_passed_once_in_order() {
        let h = |len, lines| Hole { at: 0, len, lines };
        let all = [
            Gap {
                pos: 0,
                hole: h(1, 1),
            },
            Gap {
                pos: 5,
                hole: h(10, 2),
            },
            Gap {
                pos: 9,
                hole: h(100, 3),
            },
        ];
        let mut g = Gaps::between(&all, 5, usize::MAX);
        assert_eq!(g.pass(0), 2);
        assert_eq!(g.pass(3), 0);
        assert_eq!(g.pass(4), 3);
        assert_eq!(g.pass(usize::MAX), 0);
        assert_eq!(g.skipped, 110);
        let mut first = Gaps::between(&all, 0, 5);
        assert_eq!(first.pass(usize::MAX), 1);
        assert_eq!(first.skipped, 1);
    }
}

#[cfg(test)]
mod noted {
    use super::{HOLE_MIN, Hole};
    use crate::domain::transcript::SessionParser;

    const S: &str = "aaaaaaaa-0000-4000-8000-0000000000b2";

    /// A Claude Code record of `kind` with `content` (raw JSON), sidechain
    /// or not.
    fn rec(kind: &str, uuid: &str, side: bool, content: &str) -> String {
        format!(
            r#"{{"type":"{kind}","sessionId":"{S}","uuid":"{uuid}","isSidechain":{side},"timestamp":"2026-01-02T00:00:00Z","message":{{"role":"{kind}","content":{content}}}}}"#
        )
    }

    fn output(id: &str) -> String {
        let long = "o".repeat(HOLE_MIN as usize);
        format!(r#"[{{"type":"tool_result","tool_use_id":"{id}","content":"{long}"}}]"#)
    }

    /// Which lines are holes, by what they say, where they are and how
    /// long they are: runs of them are one hole.
    #[test]
    fn long_lines_that_say_nothing_are_noted_as_holes() {
        let long = "t".repeat(HOLE_MIN as usize);
        let lines = [
            // 1: the first line is never a hole, whatever it says.
            rec("user", "u1", false, &output("t0")),
            rec(
                "assistant",
                "a1",
                false,
                r#"[{"type":"tool_use","id":"t1","name":"Read","input":{}}]"#,
            ),
            // 3-5: outputs, and a model's reasoning: one hole.
            rec("user", "u2", false, &output("t1")),
            rec("user", "u3", false, &output("t1")),
            rec(
                "assistant",
                "a2",
                false,
                &format!(r#"[{{"type":"thinking","thinking":"{long}"}}]"#),
            ),
            // 6: words, however long.
            rec(
                "assistant",
                "a3",
                false,
                &format!(r#"[{{"type":"text","text":"{long}"}}]"#),
            ),
            // 7: an inline sidechain's output: its chain names its agent.
            rec("user", "s1", true, &output("t2")),
            // 8: a progress record.
            format!(r#"{{"type":"progress","sessionId":"{S}","uuid":"p1","data":"{long}"}}"#),
            // 9: an output too short to be worth a seek.
            rec(
                "user",
                "u4",
                false,
                r#"[{"type":"tool_result","tool_use_id":"t3","content":"ok"}]"#,
            ),
            // 10: a prompt as a string.
            rec("user", "u5", false, &format!(r#""{long}""#)),
            // 11: an output with a bad time: read, as it is damaged.
            rec("user", "u6", false, &output("t4")).replace("2026-01-02T00:00:00Z", "yesterday"),
            // 12: an output.
            rec("user", "u7", false, &output("t5")),
        ];
        let mut text = Vec::new();
        let mut at = vec![0u64];
        for l in &lines {
            text.extend_from_slice(l.as_bytes());
            text.push(b'\n');
            at.push(text.len() as u64);
        }
        let hole = |from: usize, to: usize| Hole {
            at: at[from - 1],
            len: at[to] - at[from - 1],
            lines: (to - from + 1) as u64,
        };
        let expected = vec![hole(3, 5), hole(8, 8), hole(12, 12)];
        for noting in [true, false] {
            let mut p = SessionParser::new(S, false);
            p.note_holes(noting);
            let f = p.begin_main(&format!("-w-p/{S}.jsonl"));
            assert_eq!(p.block(f, &text).unwrap(), text.len() as u64);
            let got = p.finish().files[0].holes.clone();
            assert_eq!(got, if noting { expected.clone() } else { Vec::new() });
        }
        // Read a line at a time, the holes are the same.
        let mut p = SessionParser::new(S, false);
        p.note_holes(true);
        let f = p.begin_main(&format!("-w-p/{S}.jsonl"));
        for w in at.windows(2) {
            p.block(f, &text[w[0] as usize..w[1] as usize]).unwrap();
        }
        assert_eq!(p.finish().files[0].holes, expected);
    }
}
