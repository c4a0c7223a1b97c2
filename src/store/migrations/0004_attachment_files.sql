-- Schema version 4: each distinct attached file is stored once. A results mail
-- goes to every member of a game with the same board picture; version 3 kept a
-- copy of the bytes per recipient. Now `outbox_attachments` names the file and
-- `attachment_files` holds its bytes, keyed by their SHA-256.

CREATE TABLE attachment_files (
    id      INTEGER PRIMARY KEY,
    -- Lower-case hex SHA-256 of `bytes`; files carried over from version 3
    -- are keyed 'v3:<outbox id>:<position>' instead (SQL cannot hash them).
    digest  TEXT NOT NULL UNIQUE,
    bytes   BLOB NOT NULL
);

CREATE TABLE outbox_attachments_v4 (
    outbox_id    INTEGER NOT NULL REFERENCES outbox (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    file_id      INTEGER NOT NULL REFERENCES attachment_files (id),
    PRIMARY KEY (outbox_id, position)
);

INSERT INTO attachment_files (digest, bytes)
SELECT 'v3:' || outbox_id || ':' || position, bytes FROM outbox_attachments;

INSERT INTO outbox_attachments_v4 (outbox_id, position, filename, content_type, file_id)
SELECT a.outbox_id, a.position, a.filename, a.content_type, f.id
FROM outbox_attachments a
JOIN attachment_files f ON f.digest = 'v3:' || a.outbox_id || ':' || a.position;

DROP TABLE outbox_attachments;
ALTER TABLE outbox_attachments_v4 RENAME TO outbox_attachments;

CREATE INDEX outbox_attachments_by_file ON outbox_attachments (file_id);

-- As in version 3: an attachment belongs to the mail as it will be composed.
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

-- A stored file never changes: every mail that names it sends the same bytes.
CREATE TRIGGER attachment_file_no_update BEFORE UPDATE ON attachment_files
BEGIN
    SELECT RAISE(ABORT, 'an attachment file cannot be changed');
END;
