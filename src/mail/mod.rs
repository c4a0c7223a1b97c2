//! Mail in and out. This layer knows nothing of games or SQL: it turns raw bytes into
//! [`Envelope`]s and [`OutgoingMail`] into bytes on the wire.
//!
//! - `ingest` (with `text`, `html` and `robots`): raw mail → [`Envelope`].
//! - `compose` and `subject`: [`OutgoingMail`] → [`RenderedMail`] bytes.
//! - `inbound`: IMAP or Maildir source; `outbound`: SMTP or Maildir sink.
//! - `probe`: trying the servers without mail, for `legate check-config`.
//! - `ratelimit`: how many replies one sender may get per hour.
//! - `vouch`: whether a trusted receiving server vouches for the From: address.

pub mod compose;
pub mod html;
pub mod inbound;
pub mod ingest;
pub mod outbound;
pub mod probe;
pub mod ratelimit;
pub mod robots;
pub mod subject;
pub mod text;
pub mod tls;
pub mod vouch;

pub use compose::{AutoSubmitted, ComposeError, OutgoingMail, RenderedMail, render};
pub use inbound::{Inbound, InboundError, InboundMail, MailKey, Wake};
pub use ingest::{Attachment, Envelope, IngestError, IngestOptions, ingest, ingest_sized};
pub use outbound::{Outbound, SendError, Sent};
pub use robots::NoReply;
pub use subject::{SubjectTag, reply_subject};
