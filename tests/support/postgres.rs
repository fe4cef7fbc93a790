//! A PostgreSQL server of its own for a test (`tests/cli` only).

use std::path::PathBuf;

use crate::support::skip;

/// A PostgreSQL server of its own for a test: initialised in a temporary
/// folder, listening on a free loopback port, with a user `sk` whose
/// password is [`Postgres::PASSWORD`]; stopped when dropped. `None` (with
/// the reason said) where the server's programs are not installed.
pub struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
}

impl Postgres {
    pub const PASSWORD: &'static str = "sk-test-password";

    pub fn start() -> Option<Postgres> {
        Self::start_with(false)
    }

    /// The same, serving TLS with a certificate for 127.0.0.1 signed by a
    /// CA of its own, whose certificate is [`Postgres::ca`].
    pub fn start_tls() -> Option<Postgres> {
        Self::start_with(true)
    }

    /// The CA certificate (PEM) a TLS server's certificate is signed by.
    pub fn ca(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    fn start_with(tls: bool) -> Option<Postgres> {
        let bin = postgres_bin()?;
        let dir = tempfile::tempdir().ok()?;
        let data = dir.path().join("data");
        std::fs::create_dir(&data).ok()?;
        let pw = dir.path().join("pw");
        std::fs::write(&pw, Self::PASSWORD).ok()?;
        // The server refuses to run as root: as root, it runs as `postgres`.
        let root = is_root();
        if root {
            use std::os::unix::fs::PermissionsExt;
            let uid = postgres_uid()?;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).ok()?;
            std::os::unix::fs::chown(&data, Some(uid), None).ok()?;
            std::os::unix::fs::chown(&pw, Some(uid), None).ok()?;
            std::os::unix::fs::chown(dir.path(), Some(uid), None).ok()?;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        let pg = Postgres { dir, bin, port };
        let init = pg.run(&[
            "initdb",
            "-D",
            data.to_str()?,
            "-U",
            "sk",
            "--auth=scram-sha-256",
            &format!("--pwfile={}", pw.display()),
            "-E",
            "UTF8",
            "--no-sync",
        ]);
        if !init {
            skip("initdb failed: no PostgreSQL server for this test");
            return None;
        }
        let mut opts = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            pg.dir.path().display()
        );
        if tls {
            let d = pg.dir.path();
            let ok = certificates(d);
            if !ok {
                skip("openssl could not make the test server's certificates");
                return None;
            }
            if root {
                let uid = postgres_uid()?;
                for f in ["server.pem", "server.key"] {
                    std::os::unix::fs::chown(d.join(f), Some(uid), None).ok()?;
                }
            }
            opts.push_str(&format!(
                " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                d.join("server.pem").display(),
                d.join("server.key").display()
            ));
        }
        let log = pg.dir.path().join("log");
        let started = pg.run(&[
            "pg_ctl",
            "-D",
            data.to_str()?,
            "-o",
            &opts,
            "-l",
            log.to_str()?,
            "-w",
            "start",
        ]);
        if !started {
            skip("pg_ctl could not start a PostgreSQL server for this test");
            return None;
        }
        Some(pg)
    }

    /// `postgres://sk@127.0.0.1:<port>/postgres` (the password apart).
    pub fn url(&self) -> String {
        format!("postgres://sk@127.0.0.1:{}/postgres", self.port)
    }

    /// Sends `signal` (`STOP`, `CONT`) to the server and every process
    /// it started: stopped, it takes connections (the kernel does) and
    /// answers nothing.
    pub fn signal(&self, signal: &str) {
        let pid = std::fs::read_to_string(self.dir.path().join("data/postmaster.pid"))
            .ok()
            .and_then(|t| t.lines().next().map(str::trim).map(str::to_string))
            .expect("the server's pid");
        let _ = std::process::Command::new("pkill")
            .args([&format!("-{signal}"), "-P", &pid])
            .status();
        let _ = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status();
    }

    /// A client of the server, as the test's own eyes.
    pub fn client(&self) -> postgres::Client {
        postgres::Config::new()
            .host("127.0.0.1")
            .port(self.port)
            .user("sk")
            .password(Self::PASSWORD)
            .dbname("postgres")
            .connect(postgres::NoTls)
            .unwrap()
    }

    fn run(&self, args: &[&str]) -> bool {
        let prog = self.bin.join(args[0]);
        let mut c = if is_root() {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&prog);
            c
        } else {
            std::process::Command::new(&prog)
        };
        c.args(&args[1..])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        self.run(&[
            "pg_ctl",
            "-D",
            data.to_str().unwrap_or(""),
            "-m",
            "immediate",
            "-w",
            "stop",
        ]);
    }
}

/// The folder of `initdb` and `pg_ctl`: on PATH, else Debian's
/// `/usr/lib/postgresql/<version>/bin`.
fn postgres_bin() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p).find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
    });
    let found = on_path.or_else(|| {
        let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|b| b.join("initdb").is_file())
            .collect();
        versions.sort();
        versions.pop()
    });
    if found.is_none() {
        skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed");
    }
    found
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            == Some("0")
    })
}

fn postgres_uid() -> Option<u32> {
    let out = std::process::Command::new("id")
        .args(["-u", "postgres"])
        .output()
        .ok()?;
    let uid = String::from_utf8(out.stdout).ok()?.trim().parse().ok();
    if uid.is_none() {
        skip("running as root and there is no `postgres` user to run the server as");
    }
    uid
}

/// A CA and a certificate for 127.0.0.1 it signed, in `dir` (openssl).
fn certificates(dir: &std::path::Path) -> bool {
    let run = |args: &[&str]| {
        std::process::Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    std::fs::write(dir.join("san.cnf"), "subjectAltName=IP:127.0.0.1\n").is_ok()
        && run(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=sessionkit test CA",
        ])
        && run(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=127.0.0.1",
        ])
        && run(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "san.cnf",
        ])
        && {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(
                dir.join("server.key"),
                std::fs::Permissions::from_mode(0o600),
            )
            .is_ok()
        }
}
