use std::process::ExitCode;

fn main() -> ExitCode {
    legate::cli::main()
}
