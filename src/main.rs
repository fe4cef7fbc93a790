use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = sessionkit::cli::Cli::parse();
    match sessionkit::run(cli) {
        Ok(exit) => exit.code(),
        Err(err) => {
            // A closed pipe (`sessionkit sessions | head`) is not an error.
            let broken_pipe = err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("sessionkit: {err:#}");
            ExitCode::from(2)
        }
    }
}
