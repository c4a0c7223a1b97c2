-- Schema version 2: look mail up by address and time, for per-sender rate limits.

CREATE INDEX inbound_by_sender ON inbound_mails (sender COLLATE NOCASE, received_at);
CREATE INDEX outbox_by_created ON outbox (created_at);
