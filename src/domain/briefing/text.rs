//! Memory text made safe and short for a briefing line: flattened to one
//! line, the envelope's tags neutralised, clipped on a character boundary.

pub fn tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// `s` cut to at most `max` bytes at a character boundary.
pub fn clip_bytes(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Text for a client that escapes angle brackets: the briefing's envelope tags become `[sessionkit-briefing …]` and
/// `[/sessionkit-briefing]` (the same length), every other `<` and `>` the
/// look-alike `‹` and `›` (two bytes longer each).
pub fn angle_free(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, line) in s.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches('\n');
        let framed = if i == 0 && body.starts_with("<sessionkit-briefing ") && body.ends_with('>') {
            Some(format!("[{}]", &body[1..body.len() - 1]))
        } else if body == "</sessionkit-briefing>" {
            Some("[/sessionkit-briefing]".to_string())
        } else {
            None
        };
        match framed {
            Some(f) => out.push_str(&f),
            None => out.extend(body.chars().map(|c| match c {
                '<' => '\u{2039}',
                '>' => '\u{203a}',
                c => c,
            })),
        }
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// Memory text as it may appear inside the briefing (and every other
/// envelope a hook fills): anything tag-like (`<name`, `</name`, `< / name`:
/// the briefing's own tags, `<system>`, `</sessionkit-context>`) loses its
/// `<`, a code fence (three backticks or tildes) its meaning, and control
/// and bidirectional-override characters are shown escaped, so stored text
/// cannot end the data and speak as the harness or the user.
pub fn neutralise(s: &str) -> std::borrow::Cow<'_, str> {
    let b = s.as_bytes();
    // `<` then a letter (an opening tag), or `<`, spaces, `/`, spaces and a
    // letter (a closing one); `a < b` and `x <= y` are left.
    let tag_at = |i: usize| {
        let mut j = i + 1;
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        let spaced = j > i + 1;
        if j < b.len() && b[j] == b'/' {
            j += 1;
            while j < b.len() && matches!(b[j], b' ' | b'\t') {
                j += 1;
            }
        } else if spaced {
            return false;
        }
        j < b.len() && (b[j].is_ascii_alphabetic() || matches!(b[j], b'!' | b'?'))
    };
    let unsafe_char = |c: char| {
        (c.is_control() && !c.is_whitespace())
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
    };
    let tags = memchr::memchr_iter(b'<', b).any(tag_at);
    let fences = s.contains("```") || s.contains("~~~");
    let controls = s.chars().any(unsafe_char);
    if !tags && !fences && !controls {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for (i, c) in s.char_indices() {
        if c == '<' && tag_at(i) {
            out.push('‹');
        } else if unsafe_char(c) {
            // A terminal escape in stored text (ESC, BEL, RLO...): shown,
            // not obeyed.
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out.replace("```", "'''").replace("~~~", "-~-"))
}

/// Whitespace flattened, clipped to `max` characters (with an ellipsis).
pub fn flatten(s: &str, max: usize) -> String {
    let s = &*neutralise(s);
    if s.is_ascii() {
        flatten_ascii(s, max)
    } else {
        flatten_chars(s, max)
    }
}

pub(super) fn flatten_chars(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max * 4));
    let mut chars = 0;
    for word in s.split_whitespace() {
        let sep = usize::from(chars > 0);
        let n = word.chars().count();
        if chars + sep + n > max {
            // Room for what fits of this word and the ellipsis.
            let room = max.saturating_sub(chars + sep + 1);
            if sep == 1 && room > 0 {
                out.push(' ');
            }
            out.extend(word.chars().take(room));
            out.push('…');
            return out;
        }
        if sep == 1 {
            out.push(' ');
        }
        out.push_str(word);
        chars += sep + n;
    }
    out
}

/// `flatten` of ASCII text, a byte at a time: a character is a byte, and
/// the whitespace `split_whitespace` splits at is `\t \n \x0b \x0c \r` and space.
pub(super) fn flatten_ascii(s: &str, max: usize) -> String {
    let ws = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ');
    let mut out = String::with_capacity(s.len().min(max + 3));
    for word in s.as_bytes().split(ws).filter(|w| !w.is_empty()) {
        let sep = usize::from(!out.is_empty());
        let word = std::str::from_utf8(word).expect("ASCII");
        if out.len() + sep + word.len() > max {
            let room = max.saturating_sub(out.len() + sep + 1);
            if sep == 1 && room > 0 {
                out.push(' ');
            }
            out.push_str(&word[..room.min(word.len())]);
            out.push('…');
            return out;
        }
        if sep == 1 {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `flatten` for an owned string: returned as it is when already flat
/// (ASCII, single spaces, no edge spaces, within `max`), the common case.
pub fn flatten_owned(s: String, max: usize) -> String {
    let b = s.as_bytes();
    let flat = b.len() <= max
        && b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && !b.windows(2).any(|w| w == b"  ")
        && b.iter()
            .all(|c| (b' '..=b'}').contains(c) && !matches!(c, b'<' | b'`'));
    if flat { s } else { flatten(&s, max) }
}
