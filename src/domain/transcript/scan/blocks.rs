//! A Claude Code message's content blocks, found while the line is
//! scanned: for search, each block's `type`, `text`, `name`, `input` and
//! `content` as raw JSON, so that what a record says is read without
//! parsing its content a second time (a tool's output, most of a
//! transcript's bytes, is then skipped once, here). The walk checks the
//! same grammar `skip_value` checks, and a line it reads is the line
//! `lazy` reads: a block it does not read (an escaped key) is skipped as
//! `lazy` skips it, and the content is then left to serde.

use super::{LazyField, Scanner, Step};

/// The raw JSON of one content block's fields (`None`: absent).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ContentBlock<'a> {
    pub(crate) kind: Option<&'a [u8]>,
    pub(crate) text: Option<&'a [u8]>,
    pub(crate) name: Option<&'a [u8]>,
    pub(crate) input: Option<&'a [u8]>,
    pub(crate) content: Option<&'a [u8]>,
    /// A field given twice (serde refuses such a block).
    pub(crate) repeated: bool,
}

/// What a message's content held, as blocks: `None` when it is not an
/// array of objects (a string, or an element serde must read).
pub(crate) type Blocks<'a> = Option<Vec<ContentBlock<'a>>>;

impl<'a> Scanner<'a> {
    /// `message.content`: its raw text kept as `lazy` keeps it, and its
    /// blocks when it is an array of objects.
    pub(super) fn content_blocks(&mut self) -> Step<()> {
        self.ws();
        let start = self.at;
        self.blocks = None;
        if self.peek()? != b'[' {
            return self.lazy(LazyField::MessageContent);
        }
        self.at += 1;
        let mut blocks = Some(Vec::new());
        if self.peek()? == b']' {
            self.at += 1;
        } else {
            loop {
                let at = self.at;
                let read = match (self.peek()?, blocks.as_mut()) {
                    (b'{', Some(b)) => self.block().map(|block| b.push(block)).is_ok(),
                    _ => false,
                };
                if !read {
                    // Not an object, or a block the walk does not read (an
                    // escaped key): skipped as `lazy` skips it, and the
                    // content left to serde.
                    self.at = at;
                    self.skip_value()?;
                    blocks = None;
                }
                match self.peek()? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(super::Unsure),
                }
            }
        }
        self.spans
            .set(LazyField::MessageContent, Some(&self.b[start..self.at]));
        self.blocks = blocks;
        Ok(())
    }

    /// One content block (an object): its fields' raw text.
    fn block(&mut self) -> Step<ContentBlock<'a>> {
        let mut c = ContentBlock::default();
        self.object(|s, key| {
            let slot = match key {
                b"type" => &mut c.kind,
                b"text" => &mut c.text,
                b"name" => &mut c.name,
                b"input" => &mut c.input,
                b"content" => &mut c.content,
                _ => return s.skip_value(),
            };
            c.repeated |= slot.is_some();
            *slot = Some(s.raw()?);
            Ok(())
        })?;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::transcript::said::{
        SaidOptions, claude_blocks, claude_blocks_say_nothing, claude_content,
    };
    use crate::domain::transcript::wire::Record;

    /// Scans `line` asking for blocks or not: both read the same record
    /// and content; with blocks, what they say equals what the content's
    /// raw text says, for outputs kept or not. Whether the blocks served.
    fn same_either_way(line: &[u8]) -> Option<bool> {
        let (mut plain, mut with) = (Record::default(), Record::default());
        let a = super::super::scan_line(line, &mut plain, false);
        let b = super::super::scan_line(line, &mut with, true);
        assert_eq!(
            a.is_some(),
            b.is_some(),
            "{}",
            String::from_utf8_lossy(line)
        );
        let (Some((a, end_a)), Some((mut b, end_b))) = (a, b) else {
            return None;
        };
        assert_eq!((plain, end_a), (with, end_b));
        assert_eq!(a.message_content(), b.message_content());
        let raw = std::str::from_utf8(b.message_content()?).ok()?;
        let blocks = b.take_blocks()?;
        // Blocks said to say nothing give no piece, read either way.
        if claude_blocks_say_nothing(&blocks) {
            for assistant in [false, true] {
                let left_out = SaidOptions { outputs: false };
                assert_eq!(
                    claude_blocks(&blocks, assistant, left_out),
                    Some(Vec::new())
                );
                assert!(claude_content(raw, assistant, left_out).is_empty(), "{raw}");
            }
        }
        let mut served = false;
        for outputs in [false, true] {
            for assistant in [false, true] {
                let opts = SaidOptions { outputs };
                if let Some(pieces) = claude_blocks(&blocks, assistant, opts) {
                    assert_eq!(pieces, claude_content(raw, assistant, opts), "{raw}");
                    served = true;
                }
            }
        }
        Some(served)
    }

    /// Blocks as records hold them, and as serde would refuse them: the
    /// blocks serve where serde reads the content the same, and step aside
    /// (`claude_content` judges) where it would not.
    #[test]
    fn blocks_say_what_the_content_says() {
        let line = |content: &str| {
            format!(
                r#"{{"type":"assistant","uuid":"u","message":{{"id":"m","content":{content}}}}}"#
            )
        };
        let served = [
            r#"[{"type":"text","text":"a \"quoted\"\nline é"},{"type":"thinking","thinking":"x"}]"#,
            r#"[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"cargo test","password":"hunter2"}}]"#,
            r#"[{"tool_use_id":"t","type":"tool_result","content":[{"type":"text","text":"ok"}]}]"#,
            r#"[{"type":"text","text":null},{"type":null},{"name":"x"},{}]"#,
            r#"[{"type":"thinking","thinking":"x"},{"type":"tool_result","tool_use_id":"t","content":"out"}]"#,
            r#"[{"type":"tool_use","name":"Write","input":{"content":"data:image/png;base64,iVBORw0KGgo"}}]"#,
            r#"[]"#,
        ];
        for c in served {
            assert_eq!(same_either_way(line(c).as_bytes()), Some(true), "{c}");
        }
        let aside = [
            r#"[{"type":"text","text":"a","text":"b"}]"#,
            r#"[{"type":7,"text":"a"}]"#,
            r#"[{"type":"text","text":["a"]}]"#,
            r#"["text"]"#,
            r#"[{"type":"text","text":"a"},3]"#,
        ];
        for c in aside {
            let got = same_either_way(line(c).as_bytes());
            assert!(got != Some(true), "{c}: {got:?}");
        }
        // A string, or a block with an escaped key (serde's), has no blocks.
        assert_eq!(same_either_way(line(r#""just words""#).as_bytes()), None);
        assert_eq!(
            same_either_way(line(r#"[{"ty\u0070e":"text"}]"#).as_bytes()),
            None
        );
        let bad = line(r#"[{"type":"text","text":"a"},{"ty\u0070e":"text"]"#);
        assert_eq!(same_either_way(bad.as_bytes()), None);
    }

    /// Every line of the fixtures and of the corpora of real clients' files:
    /// the blocks say what the content says, and serve nearly every record
    /// with blocks.
    #[test]
    fn corpus_blocks_say_what_the_content_says() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("fixtures")];
        let corpus = root.join("../shared/corpus");
        if corpus.is_dir() {
            dirs.push(corpus.join("public"));
            dirs.push(corpus.join("captured"));
        } else {
            crate::domain::test_skipped(
                "in part: the transcript corpora beside the repository are absent: the fixtures only",
            );
        }
        let (mut with_blocks, mut served) = (0, 0);
        for p in crate::domain::test_jsonl_files(dirs) {
            let bytes = std::fs::read(&p).unwrap();
            for l in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                if let Some(s) = same_either_way(l) {
                    with_blocks += 1;
                    served += usize::from(s);
                }
            }
        }
        assert!(with_blocks > 100, "{with_blocks} lines with blocks");
        assert!(
            served * 100 >= with_blocks * 99,
            "{served} of {with_blocks}"
        );
    }
}
