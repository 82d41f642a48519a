-- The indexes of audit_events, each with the query of the product it serves. Each is shown at
-- work with EXPLAIN, on both engines, in src/domains/ledger/audit-indexes.test.ts.
--
--   audit_events_pkey (org_id, seq)               the chain read in order (verify, export, checkpoints),
--                                                 one event by its number, the newest event
--   audit_events_time_idx                         the audit page with no filter or a time range, newest first
--   audit_events_actor_idx                        ?actor= (an actor's id), newest first
--   audit_events_actor_name_idx                   ?actorName= (an e-mail), newest first
--   audit_events_category_idx                     ?action=<category>.…, and lists of exact actions (the settings
--                                                 history, flag writes counted by change-stats), newest first
--   audit_events_target_prefix_idx                one target, several targets, or a target id prefix (a flag
--                                                 namespace): text_pattern_ops answers = and = ANY as well as LIKE 'p%'
--   audit_events_correlation_idx (partial)        ?correlationId=; only events that have one are in it
--
-- Two went: every query audit_events_target_idx served, audit_events_target_prefix_idx serves on
-- the same columns; audit_events_action_idx served exact actions and prefixes, which the category
-- index now serves newest first (the query names the category with the actions). Each cost an
-- index entry on every append, about 140 bytes a record.

DROP INDEX audit_events_target_idx;
DROP INDEX audit_events_action_idx;

-- The indexes that read newest first, rebuilt in ascending order and read backwards. Within one
-- key a record's time only grows, so its new entries land at the end of that key's range. When
-- that end is the index's right edge (always for the time index; for the actor, category or target
-- whose range sorts last), PostgreSQL splits a full page there leaving it full; a descending key
-- put the entries at the left end, where every split halved a page. Measured at 200,000 records:
-- the time index 139 bytes a record against 77, an index of one actor 204 against 116. A range in
-- the middle of an index gains nothing either way. Rebuilding holds appends for as long as it
-- takes, about a second a million events for each index on the benchmark machine.
DROP INDEX audit_events_time_idx;
CREATE INDEX audit_events_time_idx ON audit_events (org_id, occurred_at, seq);
DROP INDEX audit_events_actor_idx;
CREATE INDEX audit_events_actor_idx ON audit_events (org_id, actor_id, occurred_at, seq);
DROP INDEX audit_events_actor_name_idx;
CREATE INDEX audit_events_actor_name_idx ON audit_events (org_id, actor_name, occurred_at, seq);
DROP INDEX audit_events_category_idx;
CREATE INDEX audit_events_category_idx ON audit_events (org_id, split_part(action, '.', 1), occurred_at, seq);
DROP INDEX audit_events_target_prefix_idx;
CREATE INDEX audit_events_target_prefix_idx ON audit_events (org_id, target_type, target_id text_pattern_ops, occurred_at);
