-- SDK keys: read-only credentials of applications, each bound to one environment, accepted only
-- on the flag evaluation routes (/ofrep/*). Stored as SHA-256, like API tokens.

CREATE TABLE sdk_keys (
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9]{8}$'),
  org_id text NOT NULL,
  env_key text NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  secret_hash text NOT NULL UNIQUE,
  created_by text NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  last_used_at timestamptz,
  FOREIGN KEY (org_id, env_key) REFERENCES environments (org_id, key)
);
CREATE INDEX sdk_keys_org_idx ON sdk_keys (org_id, created_at DESC);
