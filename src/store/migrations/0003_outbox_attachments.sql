-- Schema version 3: files sent along with an outbox mail (the board picture of
-- a results mail), in the order they are attached.

CREATE TABLE outbox_attachments (
    outbox_id    INTEGER NOT NULL REFERENCES outbox (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    bytes        BLOB NOT NULL,
    PRIMARY KEY (outbox_id, position)
);

-- An attachment belongs to the mail as it will be composed: it can be added
-- only while the mail is queued and its bytes are not yet fixed, and never
-- changed or removed afterwards.
CREATE TRIGGER outbox_attachment_while_open BEFORE INSERT ON outbox_attachments
WHEN NOT EXISTS (SELECT 1 FROM outbox
                 WHERE id = NEW.outbox_id AND status = 'queued' AND message IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'attachments can be added only to a queued, uncomposed outbox mail');
END;
CREATE TRIGGER outbox_attachment_no_update BEFORE UPDATE ON outbox_attachments
BEGIN
    SELECT RAISE(ABORT, 'an outbox attachment cannot be changed');
END;
CREATE TRIGGER outbox_attachment_no_delete BEFORE DELETE ON outbox_attachments
WHEN (SELECT status FROM outbox WHERE id = OLD.outbox_id) = 'sent'
BEGIN
    SELECT RAISE(ABORT, 'a sent outbox mail cannot be changed');
END;
