-- The four indexes that read the audit page newest first end at the event's time, without its
-- number after it. The page still orders by (occurred_at, seq): the index gives the events in time
-- order and PostgreSQL sorts the few that share an instant by seq as it reads them (an incremental
-- sort), as it already did through audit_log_target_prefix_idx. The page's cursor,
-- (occurred_at, seq) < (t, s), still narrows the index scan: on the time alone (<= t), with the
-- rest checked on each row. audit-indexes.test.ts shows both plans.
--
-- Two gains, measured by replaying the 206,232 records of a `bench vs-unleash` run:
--   - each entry is 8 bytes shorter;
--   - the category index stops leaving its pages half full. Its key's last column is now the time,
--     which only grows within a category, so PostgreSQL sees the inserts as ascending and splits a
--     full page where they land (as at the right edge of the time index), even when that category's
--     range is in the middle of the index. It took 90 bytes a record, and takes 41.
-- Together 781 bytes a record with the table, down to 705 (685 with the benchmark's own times,
-- where events that share a millisecond are merged into one index entry).
--
-- Rebuilding holds appends for as long as it takes, about a second a million events for each
-- index on the benchmark machine (0039).
DROP INDEX audit_log_time_idx;
CREATE INDEX audit_log_time_idx ON audit_log (org_no, occurred_at);
DROP INDEX audit_log_actor_idx;
CREATE INDEX audit_log_actor_idx ON audit_log (org_no, hashtext(actor_id), occurred_at);
DROP INDEX audit_log_actor_name_idx;
CREATE INDEX audit_log_actor_name_idx ON audit_log (org_no, hashtext(actor_name), occurred_at);
DROP INDEX audit_log_category_idx;
CREATE INDEX audit_log_category_idx ON audit_log (org_no, split_part(action, '.', 1), occurred_at);
