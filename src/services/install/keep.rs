//! Uninstall as a cut, not a rewrite: sessionkit's handlers are taken out
//! of the file's own text, and every other byte (spacing, escapes, key
//! order, repeated keys, the final newline) stays as the user left it.
//! Used when the file changed since install, so the original bytes cannot
//! simply come back.

use std::ops::Range;

use super::edit;
use super::json::Json;
use super::plan::{self, Layout};
use crate::domain::harness::Harness;

/// A JSON value found in the text: where it lies, and for a container,
/// where each of its parts lies.
#[derive(Debug)]
enum Node {
    Scalar(Range<usize>),
    Array(Range<usize>, Vec<Node>),
    /// Members: the key (decoded), where the member starts (its key's
    /// opening quote), and its value.
    Object(Range<usize>, Vec<(String, usize, Node)>),
}

impl Node {
    fn span(&self) -> Range<usize> {
        match self {
            Node::Scalar(r) | Node::Array(r, _) | Node::Object(r, _) => r.clone(),
        }
    }
}

/// A reader of spans over text already known to be valid JSON.
struct Scan<'a> {
    b: &'a [u8],
    at: usize,
}

impl Scan<'_> {
    fn space(&mut self) {
        while self.b.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn string_end(&mut self) -> Option<()> {
        self.at += 1; // the opening quote
        loop {
            match *self.b.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                _ => self.at += 1,
            }
        }
    }

    fn value(&mut self, text: &str) -> Option<Node> {
        self.space();
        let start = self.at;
        match *self.b.get(self.at)? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                loop {
                    self.space();
                    match *self.b.get(self.at)? {
                        b'}' => break,
                        b',' => self.at += 1,
                        b'"' => {
                            let key_at = self.at;
                            self.string_end()?;
                            let key: String = serde_json::from_str(&text[key_at..self.at]).ok()?;
                            self.space();
                            (self.b.get(self.at)? == &b':').then_some(())?;
                            self.at += 1;
                            let v = self.value(text)?;
                            members.push((key, key_at, v));
                        }
                        _ => return None,
                    }
                }
                self.at += 1;
                Some(Node::Object(start..self.at, members))
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.space();
                    match *self.b.get(self.at)? {
                        b']' => break,
                        b',' => self.at += 1,
                        _ => items.push(self.value(text)?),
                    }
                }
                self.at += 1;
                Some(Node::Array(start..self.at, items))
            }
            b'"' => {
                self.string_end()?;
                Some(Node::Scalar(start..self.at))
            }
            _ => {
                while self
                    .b
                    .get(self.at)
                    .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                Some(Node::Scalar(start..self.at))
            }
        }
    }
}

/// The cuts that take the parts not in `keep` out of a list whose parts
/// start at `starts` and end at `ends`, with their separating commas; the
/// caller removes a list that keeps nothing. A part with a kept part after
/// it goes up to that next part's start (the next part takes its place and
/// its leading space); one after the last kept part goes from the end of the
/// part before it.
fn cuts(starts: &[usize], ends: &[usize], keep: &[bool], out: &mut Vec<Range<usize>>) {
    let last_kept = keep.iter().rposition(|k| *k);
    for i in 0..keep.len() {
        if keep[i] {
            continue;
        }
        match last_kept {
            Some(l) if i < l => out.push(starts[i]..starts[i + 1]),
            Some(_) => out.push(ends[i - 1]..ends[i]),
            None => {}
        }
    }
}

/// What to cut from one event's array: its sessionkit handlers, and the
/// groups left without a handler. `None`: the whole array goes.
fn event_cuts(h: Harness, text: &str, items: &[Node], out: &mut Vec<Range<usize>>) -> Option<()> {
    let ours = |n: &Node| {
        Json::parse(&text[n.span()])
            .ok()
            .is_some_and(|j| edit::is_installed(h, &j))
    };
    let mut keep = Vec::with_capacity(items.len());
    let mut inner = Vec::new();
    for item in items {
        let kept = match (plan::layout(h), item) {
            (Layout::Flat, n) => !ours(n),
            (Layout::Grouped, Node::Object(_, members)) => {
                // The last `hooks` member is the one the client reads.
                match members.iter().rev().find(|(k, _, _)| k == "hooks") {
                    Some((_, _, Node::Array(_, handlers))) if !handlers.is_empty() => {
                        let hk: Vec<bool> = handlers.iter().map(|n| !ours(n)).collect();
                        if hk.iter().any(|k| *k) {
                            let (s, e) = bounds(handlers);
                            cuts(&s, &e, &hk, &mut inner);
                            true
                        } else {
                            false
                        }
                    }
                    _ => true,
                }
            }
            _ => true,
        };
        keep.push(kept);
    }
    if !keep.iter().any(|k| *k) {
        return None;
    }
    out.extend(inner);
    let (s, e) = bounds(items);
    cuts(&s, &e, &keep, out);
    Some(())
}

fn bounds(items: &[Node]) -> (Vec<usize>, Vec<usize>) {
    items.iter().map(|n| (n.span().start, n.span().end)).unzip()
}

fn member_bounds(members: &[(String, usize, Node)]) -> (Vec<usize>, Vec<usize>) {
    members.iter().map(|(_, s, n)| (*s, n.span().end)).unzip()
}

/// `text` with sessionkit's handlers for `h` cut out, when the cut gives
/// exactly `after` (the uninstall's result as a document); `None` when it
/// cannot (the caller then writes `after` out whole).
pub fn uninstall_text(text: &str, h: Harness, after: &Json) -> Option<String> {
    let mut scan = Scan {
        b: text.as_bytes(),
        at: 0,
    };
    let root = scan.value(text)?;
    let Node::Object(_, top) = &root else {
        return None;
    };
    let mut out = Vec::new();
    let mut top_keep = vec![true; top.len()];
    for (t, (key, _, hooks)) in top.iter().enumerate() {
        let (true, Node::Object(_, events)) = (key == "hooks", hooks) else {
            continue;
        };
        let mut keep = vec![true; events.len()];
        let mut inner = Vec::new();
        for (e, (_, _, arr)) in events.iter().enumerate() {
            if let Node::Array(_, items) = arr
                && !items.is_empty()
            {
                keep[e] = event_cuts(h, text, items, &mut inner).is_some();
            }
        }
        if keep.iter().any(|k| *k) {
            out.extend(inner);
            let (s, e) = member_bounds(events);
            cuts(&s, &e, &keep, &mut out);
        } else if !events.is_empty() {
            top_keep[t] = false;
        }
    }
    if top_keep.iter().any(|k| !*k) {
        if !top_keep.iter().any(|k| *k) {
            // Nothing is left: an empty object, with what followed it.
            let span = root.span();
            return Some(format!("{}{{}}{}", &text[..span.start], &text[span.end..]));
        }
        let (s, e) = member_bounds(top);
        cuts(&s, &e, &top_keep, &mut out);
    }
    out.sort_by_key(|r| r.start);
    let mut result = String::with_capacity(text.len());
    let mut from = 0;
    for r in out {
        if r.start < from {
            return None; // overlapping cuts: not a plain removal
        }
        result.push_str(&text[from..r.start]);
        from = r.end;
    }
    result.push_str(&text[from..]);
    (Json::parse(&result).ok()? == *after).then_some(result)
}

#[cfg(test)]
mod tests;
