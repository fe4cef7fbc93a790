//! `push`: the local store's sessions, agents and counted messages written
//! into a team's PostgreSQL database, exactly once.
//!
//! Every write there is an upsert keyed as the local store keys it (a
//! message by its API message id), and a message's buckets are merged by
//! the local counting rule (each the largest any push stated, the model of
//! the largest output, the earliest time), so the result does not depend on
//! which machine pushed first, how often, or whether a push died halfway. A
//! session is sent in one transaction; the local store marks it sent only
//! after the team database committed it, and sends it again when its mark
//! (files, status, usage sums) changes.

mod remote;

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::store::Store;
use crate::store::push::{PushMark, SessionPush};

/// A team database: where to connect, without the password in anything
/// that is stored or printed.
#[derive(Clone)]
pub struct Target {
    config: postgres::Config,
    /// The URL as given, for errors: the password masked.
    shown: String,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl Target {
    /// Reads a `postgres://` URL (or a `key=value` connection string).
    pub fn parse(url: &str) -> Result<Target> {
        let url = url.trim();
        let config = postgres::Config::from_str(url)
            .map_err(|e| anyhow::anyhow!("{} is not a PostgreSQL URL: {e}", mask(url)))?;
        if config.get_hosts().is_empty() {
            bail!("{} names no host", mask(url));
        }
        Ok(Target {
            config,
            shown: mask(url),
        })
    }

    /// Refuses a URL that carries a password (one to be stored as a
    /// setting): the password comes from PGPASSWORD.
    pub fn refuse_password(&self) -> Result<()> {
        if self.config.get_password().is_some() {
            bail!(
                "{} carries a password, which would be stored in the database: set PGPASSWORD instead",
                self.shown
            );
        }
        Ok(())
    }

    /// The URL with its password masked.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// A stable label of the database (host, port, name, user; never the
    /// password): what the local store keys its marks by.
    pub fn key(&self) -> String {
        use sha2::{Digest, Sha256};
        let hosts: Vec<String> = self
            .config
            .get_hosts()
            .iter()
            .map(|h| match h {
                postgres::config::Host::Tcp(s) => s.clone(),
                postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .collect();
        let label = format!(
            "{}|{:?}|{}|{}",
            hosts.join(","),
            self.config.get_ports(),
            self.config.get_dbname().unwrap_or(""),
            self.config.get_user().unwrap_or("")
        );
        Sha256::digest(label.as_bytes())
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    fn connect(&self) -> Result<postgres::Client> {
        let mut config = self.config.clone();
        if config.get_password().is_none()
            && let Some(p) = std::env::var_os("PGPASSWORD").filter(|p| !p.is_empty())
        {
            config.password(p.as_encoded_bytes());
        }
        config.connect_timeout(CONNECT_WAIT);
        let mut client = config
            .connect(tls()?)
            .map_err(|e| anyhow::anyhow!("cannot reach {}: {}", self.shown, one_line(&e)))?;
        // The server gives up a statement itself past the wait a push
        // gives it (the watch below gives up on a server that answers
        // nothing at all).
        client
            .batch_execute(&format!(
                "SET statement_timeout = {}",
                STEP_WAIT.as_millis()
            ))
            .map_err(|e| anyhow::anyhow!("{}: {}", self.shown, one_line(&e)))?;
        Ok(client)
    }
}

/// How long a connection attempt may take (the socket's).
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// How long a statement may run on the team database before the server
/// cancels it (the client's own watch is the `push.wait_seconds` setting:
/// a server that takes the connection and then answers nothing, stopped
/// or wedged, fails the push, never holds it or a sweep).
const STEP_WAIT: Duration = Duration::from_secs(60);

/// The steps a push's work has finished, for the watch that gives up on a
/// silent server.
#[derive(Clone)]
pub struct Beat(Arc<(Instant, AtomicU64)>);

impl Beat {
    fn new() -> Beat {
        Beat(Arc::new((Instant::now(), AtomicU64::new(0))))
    }

    /// A step is done: the server answered.
    pub fn step(&self) {
        let (start, last) = &*self.0;
        last.store(start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn since_last(&self) -> Duration {
        let (start, last) = &*self.0;
        start
            .elapsed()
            .saturating_sub(Duration::from_millis(last.load(Ordering::Relaxed)))
    }
}

/// Runs `work` on a thread of its own and waits for it, giving up when it
/// finished no step for `step_wait` or (with `deadline`) at the deadline:
/// what it sent so far stays sent and marked; the thread, waiting on a
/// server that does not answer, ends with the process.
pub fn watched<T: Send + 'static>(
    shown: &str,
    step_wait: Duration,
    deadline: Option<Instant>,
    work: impl FnOnce(&Beat) -> Result<T> + Send + 'static,
) -> Result<T> {
    let beat = Beat::new();
    let (tx, rx) = std::sync::mpsc::channel();
    let b = beat.clone();
    std::thread::Builder::new()
        .name("push".into())
        .spawn(move || {
            let _ = tx.send(work(&b));
        })
        .context("starting the push")?;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(r) => return r,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => bail!("the push stopped"),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            bail!(
                "{shown} was still busy when the push's time ran out: what was sent is kept, the rest goes next time"
            );
        }
        if beat.since_last() >= step_wait {
            bail!(
                "{shown} did not answer for {} s (a stopped or overloaded server): nothing more was sent; what was sent is kept, the rest goes next time",
                step_wait.as_secs()
            );
        }
    }
}

/// `push` on a connection of its own to `store`'s database, watched
/// (`watched`, each step within the `push.wait_seconds` setting): a server
/// that stops answering, or the deadline in `opts` passing, ends it with
/// an error instead of a wait. A dry run connects to nothing: it runs here.
pub fn push_watched(store: &mut Store, target: &Target, opts: &Options) -> Result<Pushed> {
    if opts.dry_run {
        return push(store, target, opts, &Beat::new());
    }
    let wait = crate::services::settings::count(store, "push.wait_seconds")?.max(1);
    let (db, t, o) = (store.path().to_path_buf(), target.clone(), opts.clone());
    watched(
        target.shown(),
        Duration::from_secs(wait),
        opts.deadline,
        move |beat| {
            let mut store = Store::open(&db)?;
            push(&mut store, &t, &o, beat)
        },
    )
}

/// TLS for the connection (rustls): used when the server offers it
/// (`sslmode=prefer`, the default) or demanded (`sslmode=require`), the
/// server's certificate verified against the public roots and, when
/// `PGSSLROOTCERT` names a PEM file, its certificates (a team's own CA).
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect> {
    use rustls_pki_types::CertificateDer;
    use rustls_pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = std::env::var_os("PGSSLROOTCERT").filter(|p| !p.is_empty()) {
        let path = std::path::PathBuf::from(path);
        let certs = CertificateDer::pem_file_iter(&path)
            .map_err(|e| anyhow::anyhow!("PGSSLROOTCERT {}: {e}", path.display()))?;
        for cert in certs {
            let cert =
                cert.map_err(|e| anyhow::anyhow!("PGSSLROOTCERT {}: {e}", path.display()))?;
            roots
                .add(cert)
                .map_err(|e| anyhow::anyhow!("PGSSLROOTCERT {}: {e}", path.display()))?;
        }
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// A URL with its password (if any) replaced by `***`.
pub fn mask(url: &str) -> String {
    if !url.contains("://") {
        // A key=value string: mask a password=… pair.
        return url
            .split_whitespace()
            .map(|kv| {
                if kv.starts_with("password=") {
                    "password=***"
                } else {
                    kv
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
    }
    crate::domain::text::mask_url(url)
}

fn one_line(e: &postgres::Error) -> String {
    let mut s = e.to_string();
    if let Some(db) = e.as_db_error() {
        s = format!("{}: {}", db.code().code(), db.message());
    } else if let Some(src) = std::error::Error::source(e) {
        s = format!("{s}: {src}");
    }
    s.replace('\n', " ")
}

/// The label this machine's rows carry: the `push.machine` setting, else
/// the host name.
pub fn machine_label(store: &Store) -> Result<String> {
    let m = crate::services::settings::choice(store, "push.machine")?;
    Ok(if m.trim().is_empty() {
        host_name()
    } else {
        m.trim().to_string()
    })
}

/// The person's label: the `push.user` setting, else none.
pub fn user_label(store: &Store) -> Result<Option<String>> {
    let u = crate::services::settings::choice(store, "push.user")?;
    Ok(Some(u.trim().to_string()).filter(|u| !u.is_empty()))
}

/// The machine's host name (`/proc/sys/kernel/hostname`, else `HOSTNAME`).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unnamed".to_string())
}

/// Every message of the team database in `f`, as cost rows (the tables are
/// read as they are: a database no push has prepared is an error).
pub fn each_cost_row(
    target: &Target,
    f: &crate::store::costs::CostFilter,
    mut visit: impl FnMut(crate::store::costs::CostRow),
) -> Result<()> {
    let (t, filter) = (target.clone(), f.clone());
    // Read on a thread of its own, watched: a server that answers nothing
    // fails the read after `STEP_WAIT` instead of holding the command.
    let rows = watched(target.shown(), STEP_WAIT, None, move |beat| {
        let mut client = t.connect()?;
        beat.step();
        let mut rows = Vec::new();
        remote::each_cost_row(&mut client, &filter, |r| rows.push(r)).map_err(|e| {
            anyhow::anyhow!(
                "reading {}: {e:#} (has `sessionkit push` written to it?)",
                t.shown()
            )
        })?;
        Ok(rows)
    })?;
    rows.into_iter().for_each(&mut visit);
    Ok(())
}

/// What a push does: which machine it speaks for, from when, and whether
/// it writes.
#[derive(Debug, Clone)]
pub struct Options {
    pub machine: String,
    /// The person's label its messages carry (`--by user`), when one is set.
    pub user: Option<String>,
    /// Only sessions active at or after this.
    pub since: Option<i64>,
    pub dry_run: bool,
    /// Memories and commitments too (they are personal: off by default).
    pub with_memory: bool,
    /// Stop sending sessions past this (the rest wait for the next push).
    pub deadline: Option<std::time::Instant>,
}

/// What a push sent.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pushed {
    /// Sessions whose mark changed since the last push (sent, or to send).
    pub sessions: u64,
    /// Their counted messages.
    pub messages: u64,
    /// Sessions already there as they are.
    pub unchanged: u64,
    /// Memories sent (with `with_memory`).
    pub memories: u64,
    /// Runs sent (with `with_memory`).
    pub runs: u64,
    /// Sessions left for the next push (the deadline passed).
    pub deferred: u64,
    /// The team database's schema version after the push.
    pub schema_version: i32,
}

/// Pushes every session whose mark changed. An unreachable database or a
/// refused login is an error before anything is written (locally or
/// there); a failure mid-way leaves the sessions sent so far marked and the
/// rest to the next push.
pub fn push(store: &mut Store, target: &Target, opts: &Options, beat: &Beat) -> Result<Pushed> {
    let key = target.key();
    let marks = store.push_candidates(&key, opts.since)?;
    let (todo, unchanged): (Vec<PushMark>, Vec<PushMark>) =
        marks.into_iter().partition(|m| m.changed);
    let mut out = Pushed {
        unchanged: unchanged.len() as u64,
        ..Pushed::default()
    };
    let memories = if opts.with_memory {
        store.memories_to_push(store.change_mark(&key, crate::store::push::MEMORIES)?)?
    } else {
        Vec::new()
    };
    out.memories = memories.len() as u64;
    let runs = if opts.with_memory {
        store.runs_to_push(store.change_mark(&key, crate::store::push::RUNS)?)?
    } else {
        Vec::new()
    };
    out.runs = runs.len() as u64;
    if opts.dry_run {
        out.sessions = todo.len() as u64;
        for m in &todo {
            out.messages += store.session_push(&m.session_id)?.messages.len() as u64;
        }
        return Ok(out);
    }
    let mut client = target.connect()?;
    beat.step();
    out.schema_version = remote::migrate(&mut client)
        .with_context(|| format!("preparing sessionkit's tables in {}", target.shown()))?;
    remote::machine_seen(&mut client, &opts.machine)?;
    beat.step();
    let total = todo.len() as u64;
    for m in todo {
        if opts
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            out.deferred = total - out.sessions;
            break;
        }
        let s: SessionPush = store.session_push(&m.session_id)?;
        let mut models: Vec<&str> = s.messages.iter().map(|m| m.model.as_str()).collect();
        models.sort_unstable();
        models.dedup();
        let table = store.prices()?;
        let prices: Vec<(String, crate::domain::pricing::Rates)> = models
            .into_iter()
            .filter_map(|m| table.lookup(m).map(|p| (m.to_string(), p.base)))
            .collect();
        remote::write_session(
            &mut client,
            &opts.machine,
            opts.user.as_deref(),
            &s,
            &prices,
        )
        .with_context(|| format!("pushing session {} to {}", m.session_id, target.shown()))?;
        store.mark_pushed(&key, &m.session_id, &m.mark, crate::domain::clock::now())?;
        beat.step();
        out.sessions += 1;
        out.messages += s.messages.len() as u64;
    }
    if let Some(latest) = memories
        .iter()
        .map(|m| {
            m.updated_at
                .max(m.commitment.as_ref().map_or(0, |c| c.updated_at))
        })
        .max()
    {
        remote::write_memories(&mut client, &opts.machine, &memories)
            .with_context(|| format!("pushing memories to {}", target.shown()))?;
        beat.step();
        store.mark_pushed(
            &key,
            crate::store::push::MEMORIES,
            &latest.to_string(),
            crate::domain::clock::now(),
        )?;
    }
    if let Some(latest) = runs
        .iter()
        .map(|r| r.last_seen_at.max(r.closed_at.unwrap_or(0)))
        .max()
    {
        remote::write_runs(&mut client, &opts.machine, &runs)
            .with_context(|| format!("pushing runs to {}", target.shown()))?;
        store.mark_pushed(
            &key,
            crate::store::push::RUNS,
            &latest.to_string(),
            crate::domain::clock::now(),
        )?;
    }
    Ok(out)
}
