-- The ledger: one hash-chained, gap-free sequence of audit events per organisation.

CREATE TABLE audit_heads (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  seq bigint NOT NULL CHECK (seq >= 0),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
);

CREATE TABLE audit_events (
  org_id text NOT NULL REFERENCES organizations (id),
  seq bigint NOT NULL CHECK (seq >= 1),
  occurred_at timestamptz NOT NULL,
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'token', 'service', 'automation', 'system')),
  actor_id text,
  actor_name text NOT NULL,
  actor_automation text,
  actor_trigger text,
  action text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$'),
  target_type text NOT NULL,
  target_id text NOT NULL,
  correlation_id text,
  request_id text,
  source text NOT NULL CHECK (source IN ('ui', 'api', 'cli', 'webhook', 'scheduler')),
  data jsonb NOT NULL,
  schema_version integer NOT NULL CHECK (schema_version >= 1),
  prev_hash text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  PRIMARY KEY (org_id, seq)
);

-- Each filter of the audit query is an index range read newest first.
CREATE INDEX audit_events_time_idx ON audit_events (org_id, occurred_at DESC, seq DESC);
CREATE INDEX audit_events_actor_idx ON audit_events (org_id, actor_id, occurred_at DESC, seq DESC);
CREATE INDEX audit_events_action_idx ON audit_events (org_id, action text_pattern_ops, occurred_at DESC);
CREATE INDEX audit_events_target_idx ON audit_events (org_id, target_type, target_id, occurred_at DESC);
CREATE INDEX audit_events_correlation_idx ON audit_events (org_id, correlation_id) WHERE correlation_id IS NOT NULL;

-- Append-only at the engine: whatever credentials the application holds, an audit event is
-- never rewritten or removed through it.
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
    USING ERRCODE = 'P0001', HINT = 'audit events can only be inserted';
END;
$$;

CREATE TRIGGER audit_events_no_update BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
