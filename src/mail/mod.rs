//! Mail in and out. This layer knows nothing of games or SQL: it turns raw bytes into
//! [`Envelope`]s and [`OutgoingMail`] into bytes on the wire.

pub mod ingest;
pub mod ratelimit;
pub mod robots;
pub mod text;

pub use ingest::{Attachment, Envelope, IngestError, IngestOptions, ingest, ingest_sized};
pub use robots::NoReply;
pub mod compose;
pub use compose::{
    AutoSubmitted, ComposeError, OutgoingMail, RenderedMail, SubjectTag, render, reply_subject,
};
pub mod inbound;
pub mod outbound;
pub use inbound::{Inbound, InboundError, InboundMail, MailKey, Wake};
pub use outbound::{Outbound, SendError, Sent};
