-- Durable timers (dead-man's switches, challenge windows, negotiation timeouts). A timer is
-- written in the same transaction as the change that sets it; a node claims a due timer with a
-- lease (claimed_until) so that, with several nodes, each timer fires once; done_at marks it fired.
CREATE TABLE timers (
  id            TEXT   NOT NULL PRIMARY KEY,
  agreement_id  TEXT   NOT NULL REFERENCES agreements (id),
  kind          TEXT   NOT NULL,
  due_at        BIGINT NOT NULL,
  claimed_by    TEXT,
  claimed_until BIGINT,
  done_at       BIGINT
);
CREATE INDEX timers_due ON timers (done_at, due_at);
