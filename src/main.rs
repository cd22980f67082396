//! Thin binary: parse the arguments, call the library, print errors (control characters
//! escaped) and exit with the error's code (listed by `ecw-sim --help`).

use clap::Parser;

fn main() {
    let cli = ecw_sim::cli::Cli::parse();
    if let Err(e) = ecw_sim::cli::dispatch(cli) {
        // A closed pipe (`ecw-sim tables | head`) is not an error worth a message.
        if let ecw_sim::Error::Io { err, .. } = &e
            && err.kind() == std::io::ErrorKind::BrokenPipe
        {
            std::process::exit(0);
        }
        ecw_sim::io::tell(&format!("error: {e}"));
        let mut cause = std::error::Error::source(&e);
        let mut last = e.to_string();
        while let Some(c) = cause {
            // Some causes repeat the message they cause: print each text once.
            let text = c.to_string();
            if !last.contains(&text) {
                ecw_sim::io::tell(&format!("  caused by: {text}"));
            }
            last = text;
            cause = c.source();
        }
        std::process::exit(e.exit_code());
    }
}
