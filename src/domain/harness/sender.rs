//! Which client process ran a hook: the hook's first ancestor that is not
//! a shell (clients run hook commands through `sh -c`), named by its
//! process id and start time, so a recycled pid is another sender. Two
//! registrations firing in one client share it; two clients, even started
//! within the same second, do not. Read from `/proc`; elsewhere unknown.

use std::path::Path;

/// Programs a client may run a hook command through: shells, and the
/// wrappers a registration may put before `sessionkit` (`timeout 10
/// sessionkit hook …`), which live no longer than the hook.
const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox", "timeout",
    "setsid", "flock", "time",
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

/// The client that ran this process as a sender a later process on this
/// machine can check: `<boot id>/<pid>@<start>` (the boot id tells this
/// machine's current boot from another machine's or an earlier boot's).
pub fn sender() -> Option<String> {
    sender_from(Path::new("/proc"), std::os::unix::process::parent_id())
}

/// This process itself as a sender (`sender`'s form), for a lease a later
/// process takes over once this one is gone.
pub fn this_process() -> Option<String> {
    sender_from(Path::new("/proc"), std::process::id())
}

/// `sender`, walking from `pid` under `proc`.
pub fn sender_from(proc: &Path, pid: u32) -> Option<String> {
    let boot = boot_id(proc)?;
    Some(format!("{boot}/{}", client_from(proc, pid)?))
}

/// This boot's id, from `proc`.
fn boot_id(proc: &Path) -> Option<String> {
    let id = std::fs::read_to_string(proc.join("sys/kernel/random/boot_id")).ok()?;
    let id = id.trim();
    (!id.is_empty() && !id.contains('/')).then(|| id.to_string())
}

/// Whether the client a `sender` names is gone: `Some(true)` when it ran
/// in this boot of this machine and no process of its id and start time
/// is left, `Some(false)` while it runs, `None` when this machine cannot
/// tell (another machine or boot, a sender it cannot read).
pub fn gone(sender: &str) -> Option<bool> {
    gone_in(Path::new("/proc"), sender)
}

/// `gone`, under `proc`.
pub fn gone_in(proc: &Path, sender: &str) -> Option<bool> {
    let (boot, client) = sender.split_once('/')?;
    if boot_id(proc)? != boot {
        return None;
    }
    let (pid, start) = client.split_once('@')?;
    let (pid, start): (u32, u64) = (pid.parse().ok()?, start.parse().ok()?);
    let Ok(stat) = std::fs::read_to_string(proc.join(pid.to_string()).join("stat")) else {
        return Some(true);
    };
    // A zombie has exited: only its parent has not reaped it yet.
    let s = Stat::parse(&stat)?;
    Some(s.start != start || s.state == "Z")
}

/// The fields of `/proc/<pid>/stat` this needs.
#[derive(Debug, PartialEq, Eq)]
struct Stat<'a> {
    comm: &'a str,
    state: &'a str,
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
            state: rest.first()?,
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
                state: "S",
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

    /// A sender is gone when its process is, or another took its pid; a
    /// sender of another boot (or machine) cannot be told.
    #[test]
    fn a_sender_is_gone_when_its_process_is() {
        let dir = tempfile::tempdir().unwrap();
        let proc = dir.path();
        std::fs::create_dir_all(proc.join("sys/kernel/random")).unwrap();
        std::fs::write(proc.join("sys/kernel/random/boot_id"), "b00t\n").unwrap();
        let put = |pid: u32, comm: &str, ppid: u32, start: u64| {
            let d = proc.join(pid.to_string());
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("stat"), stat(pid, comm, ppid, start)).unwrap();
        };
        put(40, "qwen", 2, 900);
        put(41, "sh", 40, 950);
        let s = sender_from(proc, 41).unwrap();
        assert_eq!(s, "b00t/40@900");
        assert_eq!(gone_in(proc, &s), Some(false));
        // Another process under the same pid: the client is gone.
        put(40, "node", 2, 1_000);
        assert_eq!(gone_in(proc, &s), Some(true));
        std::fs::remove_dir_all(proc.join("40")).unwrap();
        assert_eq!(gone_in(proc, &s), Some(true));
        assert_eq!(gone_in(proc, "other-boot/40@900"), None);
        assert_eq!(gone_in(proc, "garbage"), None);
    }

    #[test]
    fn this_process_has_a_client_where_proc_exists() {
        if Path::new("/proc/self/stat").exists() {
            let c = client().expect("a parent that is not a shell");
            assert!(c.contains('@'), "{c}");
        }
    }
}
