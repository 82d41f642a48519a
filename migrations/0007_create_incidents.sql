-- Incidents opened elsewhere (PagerDuty, any tool posting plain JSON) and where to post the
-- recent flag changes of the services they touch. Secrets are sealed with the data key.

CREATE TABLE incident_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  channel_url_sealed text,
  channel_host text,
  pagerduty_secret_sealed text,
  updated_at timestamptz NOT NULL
);

CREATE TABLE incidents (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  source text NOT NULL CHECK (source IN ('pagerduty', 'generic')),
  external_id text NOT NULL,
  title text NOT NULL,
  services text[] NOT NULL,
  started_at timestamptz NOT NULL,
  url text,
  created_at timestamptz NOT NULL,
  UNIQUE (org_id, source, external_id)
);
