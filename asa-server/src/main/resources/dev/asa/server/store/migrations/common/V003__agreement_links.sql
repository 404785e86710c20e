-- Sub-contracting: an agreement may name a parent; its budgets count against what the parent has
-- left. The link is written in the same transaction as the child is created.
CREATE TABLE agreement_links (
  parent_id TEXT NOT NULL REFERENCES agreements (id),
  child_id  TEXT NOT NULL REFERENCES agreements (id),
  PRIMARY KEY (parent_id, child_id)
);
