-- Alerts: every alert that reaches changeledger (Alertmanager's webhook, its API v2 shape, or
-- what a silence holds on an Alertmanager), the firing → resolved history per fingerprint, and
-- the hold a running change puts on the alerts of its blast radius.

-- How an organisation holds alerts, and how labels name the catalogue entity an alert is about.
CREATE TABLE alert_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  hold_mode text NOT NULL DEFAULT 'relay' CHECK (hold_mode IN ('relay', 'silence')),
  label_mapping jsonb,            -- null: the documented defaults
  updated_at timestamptz NOT NULL
);

-- The organisation's Alertmanagers (silence mode creates silences on each; relay mode may poll none).
CREATE TABLE alertmanagers (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  auth_kind text NOT NULL DEFAULT 'none' CHECK (auth_kind IN ('none', 'bearer', 'basic')),
  auth_sealed text,               -- the bearer token or "user:password", sealed
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (org_id, url)
);

-- Where relay mode sends the alerts it does not hold, and where a release sends its notices.
CREATE TABLE alert_destinations (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('webhook', 'email', 'slack', 'pagerduty')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  config jsonb NOT NULL DEFAULT '{}', -- what is not secret: e-mail addresses, the PagerDuty events URL
  secret_sealed text,             -- the URL of a webhook / Slack hook, the signing secret, the routing key
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX alert_destinations_org_idx ON alert_destinations (org_id);

-- One row per alert (organisation + fingerprint): its labels and its latest state.
CREATE TABLE alerts (
  org_id text NOT NULL REFERENCES organizations (id),
  fingerprint text NOT NULL CHECK (length(fingerprint) BETWEEN 1 AND 200),
  alertname text NOT NULL,
  labels jsonb NOT NULL,
  annotations jsonb NOT NULL DEFAULT '{}',
  generator_url text,
  subject_kind text NOT NULL CHECK (subject_kind IN ('service', 'asset', 'source', 'unmapped')),
  subject_key text,               -- null when unmapped
  subject_label text NOT NULL,    -- "<service> · <alertname> · <source>"
  source text NOT NULL,           -- which Alertmanager or Prometheus sent it
  state text NOT NULL CHECK (state IN ('firing', 'resolved')),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (org_id, fingerprint)
);
CREATE INDEX alerts_subject_idx ON alerts (org_id, subject_kind, subject_key);
CREATE INDEX alerts_last_seen_idx ON alerts (org_id, last_seen DESC);

-- Every firing → resolved transition. A repeat of the same state at the same moment is the same
-- row (Alertmanager re-sends a group every repeat_interval), so re-sends never duplicate.
CREATE TABLE alert_transitions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('firing', 'resolved')),
  at timestamptz NOT NULL,        -- startsAt of a firing, endsAt of a resolution
  received_at timestamptz NOT NULL,
  via text NOT NULL CHECK (via IN ('webhook', 'api', 'silence')),
  held_by text REFERENCES changes (id), -- the change whose hold kept it from being notified
  UNIQUE (org_id, fingerprint, state, at),
  FOREIGN KEY (org_id, fingerprint) REFERENCES alerts (org_id, fingerprint)
);
CREATE INDEX alert_transitions_at_idx ON alert_transitions (org_id, at);
CREATE INDEX alert_transitions_fp_idx ON alert_transitions (org_id, fingerprint, at);
CREATE INDEX alert_transitions_held_idx ON alert_transitions (held_by) WHERE held_by IS NOT NULL;

-- The hold of one change: from its start until five minutes after it finished.
CREATE TABLE alert_holds (
  change_id text PRIMARY KEY REFERENCES changes (id),
  org_id text NOT NULL REFERENCES organizations (id),
  mode text NOT NULL CHECK (mode IN ('relay', 'silence')),
  state text NOT NULL CHECK (state IN ('active', 'releasing', 'released')),
  since timestamptz NOT NULL,
  until timestamptz NOT NULL,     -- the planned end: window end + the release delay, then finish + delay
  release_at timestamptz,         -- set at finish
  released_at timestamptz,
  release_held boolean NOT NULL,
  held integer NOT NULL DEFAULT 0,
  resent integer NOT NULL DEFAULT 0,
  recovered integer NOT NULL DEFAULT 0,
  problem text,                   -- "hold not in place: <reason>" while a silence cannot be set
  updated_at timestamptz NOT NULL
);
CREATE INDEX alert_holds_org_state_idx ON alert_holds (org_id, state);

-- The subjects a live hold covers (its scope, flattened), so an alert's hold is one indexed look-up.
-- Rows exist only while the hold is active or releasing.
CREATE TABLE hold_subjects (
  org_id text NOT NULL REFERENCES organizations (id),
  subject_kind text NOT NULL CHECK (subject_kind IN ('service', 'asset', 'source')),
  subject_key text NOT NULL,
  change_id text NOT NULL REFERENCES changes (id),
  PRIMARY KEY (org_id, subject_kind, subject_key, change_id)
);
CREATE INDEX hold_subjects_change_idx ON hold_subjects (change_id);

-- What a hold held, per alert, and what became of it at release.
CREATE TABLE held_alerts (
  change_id text NOT NULL REFERENCES changes (id),
  org_id text NOT NULL REFERENCES organizations (id),
  fingerprint text NOT NULL,
  first_held_at timestamptz NOT NULL,
  last_held_at timestamptz NOT NULL,
  outcome text NOT NULL DEFAULT 'held' CHECK (outcome IN ('held', 'resent', 'recovered', 'kept')),
  decided_at timestamptz,
  PRIMARY KEY (change_id, fingerprint),
  FOREIGN KEY (org_id, fingerprint) REFERENCES alerts (org_id, fingerprint)
);
CREATE INDEX held_alerts_fp_idx ON held_alerts (org_id, fingerprint);

-- In silence mode: the silence a hold keeps on each Alertmanager.
CREATE TABLE hold_silences (
  change_id text NOT NULL REFERENCES changes (id),
  alertmanager_id text NOT NULL REFERENCES alertmanagers (id) ON DELETE CASCADE,
  silence_id text,                -- Alertmanager's UUID once created
  state text NOT NULL CHECK (state IN ('pending', 'active', 'expired', 'failed')),
  ends_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  problem text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (change_id, alertmanager_id)
);
