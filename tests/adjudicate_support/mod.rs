//! Running `legate adjudicate` as a child process, for the tests of the JSON
//! interface (`adjudicate_json`, `adjudicate_cli`).

use std::io::{ErrorKind, Write};
use std::process::{Command, Stdio};

/// Runs `legate adjudicate ARGS` with `input` on stdin; returns the exit code
/// and stdout. Fails the test if the binary panicked.
///
/// The input is written from another thread: the output may fill its pipe
/// before the input ends. A command line that is refused exits before reading
/// its input, so a pipe closed early (`EPIPE`) is not an error here; what the
/// binary printed and its exit code say what happened.
pub fn run_adjudicate(args: &[&str], input: &[u8]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_legate"))
        .arg("adjudicate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the legate binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || match stdin.write_all(&input) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    });
    let out = child.wait_with_output().expect("legate finishes");
    writer.join().expect("writer").expect("write stdin");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "legate panicked: {stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
    )
}
