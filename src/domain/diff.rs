//! A unified diff of two texts by lines (what `hooks install --dry-run`
//! and `check --golden` print), in the GNU format `patch` reads: Myers'
//! shortest edit script on the lines between the common head and tail;
//! past `MAX_MIDDLE` lines there, the middle is shown removed and added
//! whole (a diff that large is read for its size, not its detail).

/// Lines between the common head and tail past which no shortest script
/// is sought.
const MAX_MIDDLE: usize = 8_000;

/// One line of the script: kept, removed from the old text, or added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Keep(usize, usize),
    Remove(usize),
    Add(usize),
}

/// `old` and `new` as a unified diff under the `---`/`+++` names, with
/// `context` lines around each change; empty when they are the same.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str, context: usize) -> String {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    if ops.iter().all(|o| matches!(o, Op::Keep(..))) {
        return String::new();
    }
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    for hunk in hunks(&ops, context) {
        let (a0, b0) = start_of(&ops, hunk.0);
        let removed = ops[hunk.0..hunk.1]
            .iter()
            .filter(|o| !matches!(o, Op::Add(_)))
            .count();
        let added = ops[hunk.0..hunk.1]
            .iter()
            .filter(|o| !matches!(o, Op::Remove(_)))
            .count();
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(a0, removed),
            range(b0, added)
        ));
        for op in &ops[hunk.0..hunk.1] {
            let (mark, line) = match *op {
                Op::Keep(i, _) => (' ', a[i]),
                Op::Remove(i) => ('-', a[i]),
                Op::Add(j) => ('+', b[j]),
            };
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// A hunk's range as GNU writes it: `start,len`, `start` alone for one
/// line, the line before for none.
fn range(start: usize, len: usize) -> String {
    match len {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        n => format!("{},{n}", start + 1),
    }
}

/// Where the op at `at` stands in each text.
fn start_of(ops: &[Op], at: usize) -> (usize, usize) {
    ops[..at].iter().fold((0, 0), |(i, j), op| match op {
        Op::Keep(..) => (i + 1, j + 1),
        Op::Remove(_) => (i + 1, j),
        Op::Add(_) => (i, j + 1),
    })
}

/// The op ranges of the hunks: each change with `context` kept lines
/// around it, changes closer than twice that joined.
fn hunks(ops: &[Op], context: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (k, op) in ops.iter().enumerate() {
        if matches!(op, Op::Keep(..)) {
            continue;
        }
        let from = k.saturating_sub(context);
        let to = (k + 1 + context).min(ops.len());
        match out.last_mut() {
            Some(last) if from <= last.1 => last.1 = to,
            _ => out.push((from, to)),
        }
    }
    out
}

/// The edit script from `a` to `b`: the common head and tail kept, the
/// middle by Myers' algorithm.
fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<Op> = (0..head).map(|i| Op::Keep(i, i)).collect();
    let middle = if am.len() + bm.len() > MAX_MIDDLE {
        (0..am.len())
            .map(Op::Remove)
            .chain((0..bm.len()).map(Op::Add))
            .collect()
    } else {
        myers(am, bm)
    };
    ops.extend(middle.into_iter().map(|op| match op {
        Op::Keep(i, j) => Op::Keep(i + head, j + head),
        Op::Remove(i) => Op::Remove(i + head),
        Op::Add(j) => Op::Add(j + head),
    }));
    ops.extend((0..tail).map(|k| Op::Keep(a.len() - tail + k, b.len() - tail + k)));
    ops
}

/// Myers' greedy shortest edit script, its path traced back from the
/// frontier kept for each number of edits.
fn myers(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    'search: for d in 0..=max as isize {
        trace.push(v.clone());
        for k in (-d..=d).step_by(2) {
            let at = (k + offset) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                v[at + 1]
            } else {
                v[at - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at] = x;
            if x >= n && y >= m {
                break 'search;
            }
        }
    }
    // Back from the end, one edit per step.
    let (mut x, mut y) = (n, m);
    let mut ops = Vec::new();
    for (d, v) in trace.iter().enumerate().skip(1).rev() {
        let d = d as isize;
        let k = x - y;
        let at = |k: isize| (k + offset) as usize;
        let prev_k = if k == -(d - 1) - 1 || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[at(prev_k)];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            x -= 1;
            y -= 1;
            ops.push(Op::Keep(x as usize, y as usize));
        }
        if x == prev_x {
            y -= 1;
            ops.push(Op::Add(y as usize));
        } else {
            x -= 1;
            ops.push(Op::Remove(x as usize));
        }
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        ops.push(Op::Keep(x as usize, y as usize));
    }
    ops.reverse();
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts rebuilt from the script: the old from kept and removed
    /// lines, the new from kept and added ones.
    fn rebuilt(a: &str, b: &str) -> (String, String, usize) {
        let (la, lb): (Vec<&str>, Vec<&str>) = (
            a.split_inclusive('\n').collect(),
            b.split_inclusive('\n').collect(),
        );
        let ops = script(&la, &lb);
        let mut old = String::new();
        let mut new = String::new();
        let mut edits = 0;
        for op in ops {
            match op {
                Op::Keep(i, j) => {
                    assert_eq!(la[i], lb[j]);
                    old.push_str(la[i]);
                    new.push_str(lb[j]);
                }
                Op::Remove(i) => {
                    old.push_str(la[i]);
                    edits += 1;
                }
                Op::Add(j) => {
                    new.push_str(lb[j]);
                    edits += 1;
                }
            }
        }
        (old, new, edits)
    }

    #[test]
    fn the_script_rebuilds_both_texts_with_the_fewest_edits() {
        for (a, b, fewest) in [
            ("a\nb\nc\n", "a\nb\nc\n", 0),
            ("", "x\n", 1),
            ("a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n", 5),
            ("1\n2\n3\n4\n", "1\n3\n4\n5\n", 2),
            ("x\n", "", 1),
            ("a\nb", "a\nc", 2),
        ] {
            let (old, new, edits) = rebuilt(a, b);
            assert_eq!((old.as_str(), new.as_str(), edits), (a, b, fewest));
        }
    }

    #[test]
    fn a_diff_reads_as_gnu_writes_it() {
        let old = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
        let new = "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n";
        assert_eq!(
            unified(old, new, "a", "b", 1),
            "--- a\n+++ b\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n@@ -10 +10,2 @@\n ten\n+eleven\n"
        );
        assert_eq!(
            unified("", "x\n", "/dev/null", "f", 3),
            "--- /dev/null\n+++ f\n@@ -0,0 +1 @@\n+x\n"
        );
        assert_eq!(
            unified("x", "y", "a", "b", 3),
            "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n"
        );
        assert_eq!(unified("same\n", "same\n", "a", "b", 3), "");
    }

    #[test]
    fn a_huge_middle_is_removed_and_added_whole() {
        let old: String = (0..MAX_MIDDLE).map(|i| format!("o{i}\n")).collect();
        let new: String = (0..10).map(|i| format!("n{i}\n")).collect();
        let (o, n, edits) = rebuilt(&old, &new);
        assert_eq!((o, n, edits), (old, new, MAX_MIDDLE + 10));
    }
}
