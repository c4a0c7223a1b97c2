//! `legate run [--config FILE] [--once] [--now TIME]`: the judge itself.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::config::Config;
use crate::daemon::{self, clock};

#[derive(clap::Args)]
pub struct Args {
    /// The configuration file (TOML; see config/legate.example.toml). Without it, all
    /// mail stays in the folders mail/in and mail/out and no server is needed.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Handle every waiting mail and every due deadline, deliver the outbox, then exit.
    #[arg(long)]
    once: bool,
    /// With --once: act as if it were this time (RFC 3339, e.g. 2026-12-01T12:00:00Z).
    #[arg(long, requires = "once")]
    now: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    init_logging();
    let config = match &args.config {
        Some(path) => match Config::load(path) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("legate run: {e}");
                return ExitCode::from(2);
            }
        },
        None => Config::embedded_default(),
    };
    let now = match args.now.as_deref().map(clock::parse_now).transpose() {
        Ok(now) => now,
        Err(e) => {
            eprintln!("legate run: {e}");
            return ExitCode::from(2);
        }
    };
    // The daemon's two tasks (mail in, mail out) each hold a thread while they
    // apply or compose mail; a third one is always free to notice a stop signal.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(3)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("legate run: cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    if args.once {
        let now = now.unwrap_or_else(|| clock::Clock::System.now());
        runtime.block_on(once(&config, now))
    } else {
        runtime.block_on(forever(&config))
    }
}

async fn once(config: &Config, now: chrono::DateTime<chrono::Utc>) -> ExitCode {
    match daemon::run_once(config, now).await {
        Ok(report) => {
            let i = &report.intake;
            let d = &report.delivery;
            println!(
                "mail read: {} (applied {}, duplicates {}, not answered {}, too large {}, \
                 rate-limited {}, unreadable {}, failed {}, left for later {})",
                i.fetched,
                i.applied,
                i.duplicates,
                i.ignored,
                i.oversize,
                i.rate_limited,
                i.unreadable,
                i.failed,
                i.deferred
            );
            println!("phases processed at their deadline: {}", report.processed);
            println!(
                "mail sent: {} (postponed {}, failed {})",
                d.sent, d.postponed, d.failed
            );
            if let Some(e) = &report.inbound_error {
                eprintln!("legate run: reading mail failed: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("legate run: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn forever(config: &Config) -> ExitCode {
    match daemon::run(config, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("legate run: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Ctrl-C or SIGTERM. The SIGTERM handler is installed at once, before the
/// database is opened, so that a stop asked for (by systemd, say) while the judge
/// starts is a clean stop too rather than the default end of the process.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate());
    let interrupt = tokio::signal::ctrl_c();
    async move {
        #[cfg(unix)]
        if let Ok(mut term) = term {
            tokio::select! {
                _ = interrupt => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = interrupt.await;
    }
}

/// Log lines on stderr; `RUST_LOG` chooses the detail (default: info).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
