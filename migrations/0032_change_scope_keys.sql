-- The catalogue keys of each change's current blast-radius scope (its services and assets), kept
-- on the change with the blast version they are of, so "which approved or running changes cover
-- any of these services?" is answered from the change rows alone, without a blob per change.
-- Forward-only and additive: a server of the previous release leaves them stale when it stores a
-- new blast, and readers then compute the keys from the blob (scope_keys_version <> blast_version).
ALTER TABLE changes ADD COLUMN scope_keys text[];
ALTER TABLE changes ADD COLUMN scope_keys_version integer;

UPDATE changes c SET scope_keys = ARRAY(
    SELECT DISTINCT b.stored->'k'->>(i::int)
      FROM jsonb_array_elements_text(COALESCE(b.stored->'scope'->'s', '[]'::jsonb) || COALESCE(b.stored->'scope'->'a', '[]'::jsonb)) AS i),
  scope_keys_version = b.version
  FROM change_blasts b WHERE b.change_id = c.id AND b.version = c.blast_version;

-- Which changes cover any of a delivery's services: the keys, and the changes with a blast radius
-- whose keys are stale.
CREATE INDEX changes_scope_keys_idx ON changes USING gin (scope_keys);
CREATE INDEX changes_stale_scope_idx ON changes (org_id) WHERE blast_version > 0 AND scope_keys_version IS DISTINCT FROM blast_version;
-- Which changes could vouch for a write at a time: the running ones, and those whose window (or
-- run) ended after it. Without this, every delivery would read every reported change ever made.
CREATE INDEX changes_org_ended_idx ON changes (org_id, (GREATEST(window_end, COALESCE(finished_at, window_end))));
-- A change named by its display id (CHG- and the first 8 of its id): a prefix match on the id.
CREATE INDEX changes_id_prefix_idx ON changes (id text_pattern_ops);
