-- Schema version 5: a mail that signed on with a seat's right password is
-- marked. The hourly cap per sender address counts only the mails that were
-- not: anyone can write a player's address in From:, nobody else can write the
-- player's password, so forged mail never spends a real player's budget.

ALTER TABLE inbound_mails ADD COLUMN signed INTEGER NOT NULL DEFAULT 0
    CHECK (signed IN (0, 1));
