//! The `tirage` binary: everything is in the library and `cli`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
