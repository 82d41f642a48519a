-- Changes: what a person or a pipeline registers, its approvals, its blast-radius snapshots and its
-- reports. Every transition is also an audit event (the change's timeline is read from the ledger).

ALTER TABLE change_settings
  ADD COLUMN approval_required text NOT NULL DEFAULT 'all' CHECK (approval_required IN ('none', 'api', 'all')),
  ADD COLUMN quorum integer NOT NULL DEFAULT 2 CHECK (quorum BETWEEN 1 AND 25),
  ADD COLUMN approval_expiry_minutes integer NOT NULL DEFAULT 1440 CHECK (approval_expiry_minutes BETWEEN 15 AND 10080),
  ADD COLUMN start_timeout_minutes integer NOT NULL DEFAULT 1440 CHECK (start_timeout_minutes BETWEEN 15 AND 10080),
  ADD COLUMN surveillance_minutes integer NOT NULL DEFAULT 60 CHECK (surveillance_minutes BETWEEN 15 AND 1440),
  ADD COLUMN completion_recipients text[] NOT NULL DEFAULT '{}',
  ADD COLUMN allow_private_callbacks boolean NOT NULL DEFAULT false;

CREATE TABLE change_approvers (
  org_id text NOT NULL REFERENCES organizations (id),
  user_id text NOT NULL REFERENCES users (id),
  critical boolean NOT NULL DEFAULT false,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, user_id)
);

CREATE TABLE changes (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('deploy', 'config', 'infra', 'other')),
  description text,
  ticket_url text,
  status text NOT NULL CHECK (status IN ('draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved', 'rejected', 'expired', 'active', 'evaluating', 'reported', 'cancelled')),
  outcome text CHECK (outcome IN ('success', 'partial', 'rolled_back', 'unknown')),
  impact text CHECK (impact IN ('outage', 'significant', 'minor', 'none', 'unknown')),
  hops integer NOT NULL CHECK (hops IN (1, 2)),
  window_start timestamptz NOT NULL,
  window_end timestamptz NOT NULL,
  evidence_minutes integer NOT NULL,
  max_duration_minutes integer,
  auto_start boolean NOT NULL DEFAULT false,
  release_held boolean NOT NULL DEFAULT true,
  silence_infra text CHECK (silence_infra IN ('none', 'dedicated', 'all')),
  pipeline jsonb,
  callback_url text,
  callback_secret_sealed text,
  recipients text[] NOT NULL DEFAULT '{}',
  -- The components as resolved ({kind, key, name, match, query?, seen}), and the names still unresolved.
  components jsonb NOT NULL,
  unresolved jsonb NOT NULL DEFAULT '[]',
  criticality text CHECK (criticality IN ('critical', 'important', 'standard')),
  criticality_source text CHECK (criticality_source IN ('components', 'blast', 'none', 'pending')),
  component_tiers jsonb NOT NULL DEFAULT '{}',
  gated boolean NOT NULL DEFAULT false,
  quorum integer,
  owner_id text NOT NULL REFERENCES users (id),
  via_token_id text,
  approval_expires_at timestamptz,
  start_deadline timestamptz,
  decided_at timestamptz,
  rejection_reason text,
  started_at timestamptz,
  finished_at timestamptz,
  aborted boolean NOT NULL DEFAULT false,
  notes text,
  evaluate_at timestamptz,
  reported_at timestamptz,
  blast_version integer NOT NULL DEFAULT 0,
  report_version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX changes_org_window_idx ON changes (org_id, window_start DESC, id);
CREATE INDEX changes_org_status_idx ON changes (org_id, status);

-- One row per version: a scheduled change edited gets a new one; the report compares against the latest.
CREATE TABLE change_blasts (
  change_id text NOT NULL REFERENCES changes (id),
  version integer NOT NULL,
  stored jsonb NOT NULL,
  bytes integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (change_id, version)
);

CREATE TABLE change_approvals (
  change_id text NOT NULL REFERENCES changes (id),
  user_id text NOT NULL REFERENCES users (id),
  decision text NOT NULL CHECK (decision IN ('approved', 'rejected')),
  comment text,
  critical boolean NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (change_id, user_id)
);

CREATE TABLE change_reports (
  change_id text NOT NULL REFERENCES changes (id),
  version integer NOT NULL,
  impact text NOT NULL,
  outcome text,
  summary text NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (change_id, version)
);
