-- Attempts, backoff and a dead-letter state for durable timers. A timer whose action fails is
-- retried later (due_at moves by the backoff), its failed attempts counted and its last error
-- kept; after too many failures dead_at is set and the timer is never claimed again, left for an
-- operator to look at. Setting the timer again (a new deadline) resets all three. Existing timers
-- start with no failed attempts.
--
-- The outbox needs no new column: it already counts attempts and keeps the last error; a message
-- that has failed too many times ends with status 'dead' (next to pending, delivered and failed).
ALTER TABLE timers ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE timers ADD COLUMN last_error TEXT;
ALTER TABLE timers ADD COLUMN dead_at BIGINT;
