//! The `sessionkit` binary: parses the command line and runs it
//! (`sessionkit::run`); exit status 0, 1 (a check found something) or 2.

use std::process::ExitCode;

use clap::error::ErrorKind;

fn main() -> ExitCode {
    let cli = match sessionkit::cli::parse() {
        Ok(cli) => cli,
        // A hook never breaks its agent: even a bad command line exits 0,
        // with one line on stderr.
        // Nor does a status line: a minimal line, the error on stderr.
        Err(e)
            if called_as("statusline")
                && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) =>
        {
            let text = e.to_string();
            eprintln!(
                "sessionkit statusline: {}",
                text.lines().next().unwrap_or("bad arguments")
            );
            println!("sessionkit");
            return ExitCode::SUCCESS;
        }
        Err(e)
            if called_as("hook")
                && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) =>
        {
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprintln!(
                    "sessionkit hook: which hook? try `sessionkit hook event` (see `sessionkit hook --help`)"
                );
            } else {
                let text = e.to_string();
                let first = text.lines().next().unwrap_or("bad arguments");
                eprintln!("sessionkit hook: {first}");
            }
            return ExitCode::SUCCESS;
        }
        Err(e) => e.exit(),
    };
    match sessionkit::run(cli) {
        Ok(exit) => exit.code(),
        Err(err) => {
            // A closed pipe (`sessionkit sessions | head`) is not an error.
            // (serde_json reports a write's failure as its own error type.)
            let broken_pipe = err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
                    || e.downcast_ref::<serde_json::Error>()
                        .is_some_and(|j| j.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("sessionkit: {}", sessionkit::error_text(&err));
            ExitCode::from(2)
        }
    }
}

/// Whether the command line's first word (past the global options and
/// their values) is `hook`.
fn called_as(verb: &str) -> bool {
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if matches!(a.as_str(), "--db" | "--format" | "--color") {
            args.next();
        } else if !a.starts_with('-') {
            return a == verb;
        }
    }
    false
}
