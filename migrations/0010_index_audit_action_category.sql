-- Newest-first reads of one action category (`delivery.*`) from an index, however rare the category.
CREATE INDEX audit_events_category_idx ON audit_events (org_id, split_part(action, '.', 1), occurred_at DESC, seq DESC);
