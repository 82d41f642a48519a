-- Feature flags: per-organisation environments, flags, and each flag's state per environment.
-- A flag's change record is an audit event of the ledger (target type 'flag'), so it inherits the
-- ledger's guarantees: append-only at the engine, hash-chained, checked by `audit verify`.

CREATE TABLE environments (
  org_id text NOT NULL REFERENCES organizations (id),
  key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9-]{0,31}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  position integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, key)
);

CREATE TABLE flags (
  org_id text NOT NULL REFERENCES organizations (id),
  key text NOT NULL CHECK (length(key) <= 200 AND key ~ '^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$'),
  type text NOT NULL CHECK (type IN ('boolean', 'string', 'number', 'json')),
  description text NOT NULL,
  owner_service text,
  risk text NOT NULL CHECK (risk IN ('low', 'high')),
  tags text[] NOT NULL,
  off_value jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX flags_key_prefix_idx ON flags (org_id, key text_pattern_ops);

CREATE TABLE flag_states (
  org_id text NOT NULL,
  flag_key text NOT NULL,
  env_key text NOT NULL,
  enabled boolean NOT NULL,
  value jsonb NOT NULL,
  rules jsonb NOT NULL,
  rollout jsonb,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, flag_key, env_key),
  FOREIGN KEY (org_id, flag_key) REFERENCES flags (org_id, key),
  FOREIGN KEY (org_id, env_key) REFERENCES environments (org_id, key)
);

-- The flag audit answers "every change under ops.payments.*" from an index, whatever the
-- database's collation (text_pattern_ops makes LIKE 'prefix%' indexable).
CREATE INDEX audit_events_target_prefix_idx ON audit_events (org_id, target_type, target_id text_pattern_ops, occurred_at DESC);
