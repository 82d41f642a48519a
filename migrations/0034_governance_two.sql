-- Governance II: before-state captures, rollback paths and the sweep that decides them, validation
-- plans and post-implementation reviews. Additive: a server of the previous release ignores it all.

-- What a change's target looked like before it: append-only, one row per capture, never edited.
CREATE TABLE change_captures (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  change_id text NOT NULL REFERENCES changes (id),
  source text NOT NULL,
  method text NOT NULL CHECK (method IN ('previous_version', 'previous_commit', 'base_commit', 'artifact')),
  previous_version text,
  previous_commit text,
  artifact text,
  artifact_type text CHECK (artifact_type IN ('json', 'text')),
  artifact_name text,
  size_bytes integer NOT NULL DEFAULT 0,
  sha256 text NOT NULL,
  completeness text NOT NULL CHECK (completeness IN ('complete', 'partial', 'unknown')),
  prestate_status text NOT NULL CHECK (prestate_status IN ('present', 'absent', 'unknown')),
  restorable boolean NOT NULL,
  captured_at timestamptz NOT NULL,
  captured_by jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX change_captures_change_idx ON change_captures (change_id, created_at);

CREATE FUNCTION change_captures_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'change_captures is append-only: % refused', TG_OP
    USING ERRCODE = 'P0001', HINT = 'a before-state capture can only be added';
END;
$$;
CREATE TRIGGER change_captures_no_update BEFORE UPDATE OR DELETE ON change_captures
  FOR EACH ROW EXECUTE FUNCTION change_captures_refuse_change();
CREATE TRIGGER change_captures_no_truncate BEFORE TRUNCATE ON change_captures
  FOR EACH STATEMENT EXECUTE FUNCTION change_captures_refuse_change();

-- The digest of a change's captures, bound into the approval digest.
ALTER TABLE changes ADD COLUMN capture_digest text;

-- The way back: {kind, plan, generatedBy}, then what became of it.
ALTER TABLE changes ADD COLUMN rollback jsonb;
ALTER TABLE changes ADD COLUMN rollback_state text CHECK (rollback_state IN ('requested', 'rolled_back', 'failed'));
ALTER TABLE changes ADD COLUMN rollback_requested_at timestamptz;
ALTER TABLE changes ADD COLUMN rollback_completed_at timestamptz;
ALTER TABLE changes ADD COLUMN rollback_released_by jsonb;
-- The sweep decides each change once: its decision and when.
ALTER TABLE changes ADD COLUMN rollback_decision jsonb;
ALTER TABLE changes ADD COLUMN rollback_decided_at timestamptz;
CREATE INDEX changes_sweep_idx ON changes (finished_at) WHERE rollback_decided_at IS NULL AND finished_at IS NOT NULL;

-- People who released a rollback (an L3 rollback needs two distinct ones).
CREATE TABLE change_rollback_releases (
  change_id text NOT NULL REFERENCES changes (id),
  user_id text NOT NULL REFERENCES users (id),
  at timestamptz NOT NULL,
  PRIMARY KEY (change_id, user_id)
);

-- Validation plan: fixed at registration; one result row per item once checked.
ALTER TABLE changes ADD COLUMN validation_plan jsonb;
ALTER TABLE changes ADD COLUMN validation_result text CHECK (validation_result IN ('cleared', 'still_present', 'uncertain'));
ALTER TABLE changes ADD COLUMN validation_checked_at timestamptz;
CREATE TABLE change_validation_rows (
  change_id text NOT NULL REFERENCES changes (id),
  item_id text NOT NULL,
  state text NOT NULL CHECK (state IN ('pass', 'fail', 'not_observed')),
  observed text,
  detail text NOT NULL,
  checked_at timestamptz NOT NULL,
  PRIMARY KEY (change_id, item_id)
);

-- Post-implementation reviews: each submission is a new version; the latest is the review.
CREATE TABLE change_reviews (
  change_id text NOT NULL REFERENCES changes (id),
  version integer NOT NULL,
  org_id text NOT NULL REFERENCES organizations (id),
  summary text NOT NULL,
  cause text NOT NULL DEFAULT '',
  what_went_well text NOT NULL DEFAULT '',
  follow_ups jsonb NOT NULL DEFAULT '[]',
  author_id text NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (change_id, version)
);
ALTER TABLE changes ADD COLUMN review_reminded_at timestamptz;

-- A template demoted by the first rollback of a change it made standard.
ALTER TABLE change_templates ADD COLUMN demoted_at timestamptz;
ALTER TABLE change_templates ADD COLUMN demoted_by_change text;

-- The organisation's rules for before-states and rollbacks.
ALTER TABLE change_settings ADD COLUMN require_before_state text NOT NULL DEFAULT 'production' CHECK (require_before_state IN ('production', 'always', 'never'));
ALTER TABLE change_settings ADD COLUMN demote_on_rollback boolean NOT NULL DEFAULT true;
ALTER TABLE change_settings ADD COLUMN rollback_sweep_window_hours integer NOT NULL DEFAULT 24 CHECK (rollback_sweep_window_hours BETWEEN 1 AND 168);
