-- The hash the head had before its last move. appendAuditEvent moves the head in one UPDATE that
-- numbers and hashes the new event from the row it locks, and RETURNING gives only the new values:
-- the old hash (the event's prev_hash) comes back through this column. Read nowhere else.
-- Compatible with the previous release's code, which moves the head without it: null until the
-- head's next move by this release, and never read before that move sets it.
ALTER TABLE audit_heads ADD COLUMN prev_hash text CHECK (prev_hash ~ '^[0-9a-f]{64}$');
