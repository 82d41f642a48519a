-- The four indexes that read the audit page newest first end at the event's time, without its
-- number after it, and the category index keys on a 4-byte hash of the category (hashtext, as the
-- actor indexes do since 0040). The page still orders by (occurred_at, seq): the index gives the
-- events in time order and PostgreSQL sorts the few that share an instant by seq as it reads them
-- (an incremental sort), as it already did through audit_log_target_prefix_idx. The page's cursor,
-- (occurred_at, seq) < (t, s), still narrows the index scan: on the time alone (<= t), with the
-- rest checked on each row. The category filters name the category by its hash and the action by
-- its text, so a category sharing another's hash is dropped on the row. audit-indexes.test.ts
-- shows the plans; ledger.test.ts pages through events of one instant and filters beside hash
-- twins.
--
-- Each entry of the four is now 24 bytes and a 4-byte line pointer, fixed, where it was 36 to 44.
-- At that width PostgreSQL packs the pages of a key range that grows only at its end (one actor's,
-- one category's, one organisation's events) even in the middle of an index: a full page there is
-- split where the new entry lands, not in half. Wider entries, or ones of varying width, do not
-- get that, and 0040's indexes were about half full wherever a range was not the last.
--
-- Bytes a record, the table's 456 included, replaying the 206,232 records of a
-- `bench vs-unleash --records 200000` run in order (docs/performance.md):
--   one organisation, as the benchmark:                       781 → 678 (696 with no two events
--                                                              in one millisecond)
--   one event in 10 of a second organisation, one in 20 a
--   session (a category after flag):                          868 → 765 (724)
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
CREATE INDEX audit_log_category_idx ON audit_log (org_no, hashtext(split_part(action, '.', 1)), occurred_at);
