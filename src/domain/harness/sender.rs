//! Which client process ran a hook: the hook's first ancestor that is not
//! a shell (clients run hook commands through `sh -c`), named by its
//! process id and start time, so a recycled pid is another sender. Two
//! registrations firing in one client share it; two clients, even started
//! within the same second, do not. Read from `/proc`; elsewhere unknown.

use std::path::Path;

/// Programs a client may run a hook command through.
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox",
];

/// Ancestors looked at before giving up (a shell running a shell...).
const MAX_DEPTH: usize = 8;

/// `pid@start` of the client that ran this process, or `None` where
/// `/proc` does not say (then a duplicate is judged without it).
pub fn client() -> Option<String> {
    client_from(Path::new("/proc"), std::os::unix::process::parent_id())
}

/// `client`, walking from `pid` under `proc`.
pub fn client_from(proc: &Path, mut pid: u32) -> Option<String> {
    for _ in 0..MAX_DEPTH {
        // The first process, or a reaper that took an orphan, is no client.
        if pid <= 1 {
            return None;
        }
        let stat = std::fs::read_to_string(proc.join(pid.to_string()).join("stat")).ok()?;
        let s = Stat::parse(&stat)?;
        if !SHELLS.contains(&s.comm) {
            return Some(format!("{pid}@{}", s.start));
        }
        pid = s.ppid;
    }
    None
}

/// The fields of `/proc/<pid>/stat` this needs.
#[derive(Debug, PartialEq, Eq)]
struct Stat<'a> {
    comm: &'a str,
    ppid: u32,
    /// Clock ticks after boot (field 22).
    start: u64,
}

impl<'a> Stat<'a> {
    /// The name sits in parentheses and may hold spaces and parentheses
    /// itself: the fields after it follow the last `)`.
    fn parse(text: &'a str) -> Option<Stat<'a>> {
        let open = text.find('(')?;
        let close = text.rfind(')')?;
        let comm = text.get(open + 1..close)?;
        let rest: Vec<&str> = text.get(close + 1..)?.split_ascii_whitespace().collect();
        // rest[0] is field 3 (state): field n is rest[n - 3].
        Some(Stat {
            comm,
            ppid: rest.get(1)?.parse().ok()?,
            start: rest.get(19)?.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(pid: u32, comm: &str, ppid: u32, start: u64) -> String {
        format!(
            "{pid} ({comm}) S {ppid} 1 1 0 -1 4194560 100 0 0 0 1 1 0 0 20 0 1 0 {start} 1000 10 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
        )
    }

    #[test]
    fn stat_fields_follow_the_last_parenthesis() {
        let s = stat(7, "a) (b", 3, 123_456);
        assert_eq!(
            Stat::parse(&s),
            Some(Stat {
                comm: "a) (b",
                ppid: 3,
                start: 123_456
            })
        );
        assert_eq!(Stat::parse("7 (x) S"), None);
    }

    #[test]
    fn the_client_is_the_first_ancestor_that_is_not_a_shell() {
        let dir = tempfile::tempdir().unwrap();
        let put = |pid: u32, comm: &str, ppid: u32, start: u64| {
            let d = dir.path().join(pid.to_string());
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("stat"), stat(pid, comm, ppid, start)).unwrap();
        };
        put(40, "claude", 2, 900);
        put(41, "sh", 40, 950);
        put(42, "bash", 41, 951);
        put(50, "node", 1, 990);
        assert_eq!(client_from(dir.path(), 42).as_deref(), Some("40@900"));
        assert_eq!(client_from(dir.path(), 40).as_deref(), Some("40@900"));
        assert_eq!(client_from(dir.path(), 50).as_deref(), Some("50@990"));
        // Orphaned (reparented to init), or /proc not there: unknown.
        put(60, "sh", 1, 999);
        assert_eq!(client_from(dir.path(), 60), None);
        assert_eq!(client_from(dir.path(), 77), None);
        assert_eq!(client_from(&dir.path().join("none"), 42), None);
    }

    #[test]
    fn this_process_has_a_client_where_proc_exists() {
        if Path::new("/proc/self/stat").exists() {
            let c = client().expect("a parent that is not a shell");
            assert!(c.contains('@'), "{c}");
        }
    }
}
