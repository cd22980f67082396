//! Thin binary: parse the arguments, call the library, print errors with their causes, exit 2.

use clap::Parser;

fn main() {
    let cli = ecw_sim::cli::Cli::parse();
    if let Err(e) = ecw_sim::cli::dispatch(cli) {
        // A closed pipe (`ecw-sim tables | head`) is not an error worth a message.
        if let ecw_sim::Error::Io { source, .. } = &e
            && source.kind() == std::io::ErrorKind::BrokenPipe
        {
            std::process::exit(0);
        }
        eprintln!("error: {e}");
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            eprintln!("  caused by: {c}");
            cause = c.source();
        }
        std::process::exit(2);
    }
}
