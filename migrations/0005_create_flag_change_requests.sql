-- Approvals for flag changes: a policy per environment (e.g. production, high-risk flags), an
-- override per flag, and change requests that apply once enough people other than the proposer
-- approved them.

ALTER TABLE environments ADD COLUMN approval_policy text NOT NULL DEFAULT 'none'
  CHECK (approval_policy IN ('none', 'high-risk', 'all'));
ALTER TABLE environments ADD COLUMN approvals_needed integer NOT NULL DEFAULT 1
  CHECK (approvals_needed BETWEEN 1 AND 10);
ALTER TABLE flags ADD COLUMN approvals_needed integer NOT NULL DEFAULT 0
  CHECK (approvals_needed BETWEEN 0 AND 10);

CREATE TABLE flag_change_requests (
  id text PRIMARY KEY,
  org_id text NOT NULL,
  flag_key text NOT NULL,
  env_key text NOT NULL,
  patch jsonb NOT NULL,
  reason text NOT NULL,
  meta jsonb NOT NULL,
  proposer jsonb NOT NULL,
  proposer_user_id text NOT NULL REFERENCES users (id),
  correlation_id text,
  status text NOT NULL CHECK (status IN ('proposed', 'applied', 'rejected', 'expired')),
  approvals_needed integer NOT NULL CHECK (approvals_needed >= 1),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  rejection jsonb,
  record_seq bigint,
  FOREIGN KEY (org_id, flag_key) REFERENCES flags (org_id, key),
  FOREIGN KEY (org_id, env_key) REFERENCES environments (org_id, key)
);
CREATE INDEX flag_change_requests_open_idx ON flag_change_requests (org_id, status, created_at DESC);
CREATE INDEX flag_change_requests_flag_idx ON flag_change_requests (org_id, flag_key, created_at DESC);

CREATE TABLE flag_approvals (
  request_id text NOT NULL REFERENCES flag_change_requests (id),
  user_id text NOT NULL REFERENCES users (id),
  email text NOT NULL,
  approved_at timestamptz NOT NULL,
  PRIMARY KEY (request_id, user_id)
);
