-- Evidence: where an organisation's metrics and logs come from, the thresholds its verdicts use,
-- the OTLP log records it sends us, the AI provider that reads its reports, and what each stored
-- report version holds besides the evidence itself.

-- One row per organisation: the verdict's thresholds, the RED query templates, the AI switch.
CREATE TABLE evidence_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  thresholds jsonb,               -- null: the documented defaults (evidence/thresholds.ts)
  red_templates jsonb,            -- null: the documented defaults; {preset} or {rate, errorRatio, p95}
  ai_enabled boolean NOT NULL DEFAULT true,   -- "AI assessment of change reports", owner only
  updated_at timestamptz NOT NULL
);

-- Prometheus, Loki, Elasticsearch / OpenSearch, and our own OTLP logs intake.
CREATE TABLE evidence_sources (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('prometheus', 'loki', 'elasticsearch', 'otlp')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  url text CHECK (url IS NULL OR length(url) BETWEEN 1 AND 2000),   -- null only for otlp
  auth_kind text NOT NULL DEFAULT 'none' CHECK (auth_kind IN ('none', 'bearer', 'basic')),
  auth_sealed text,               -- the bearer token or "user:password", sealed
  config jsonb NOT NULL DEFAULT '{}', -- what is not secret: an index pattern, a Loki selector, field names
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX evidence_sources_org_idx ON evidence_sources (org_id, kind);

-- Log records received on POST /v1/logs (OTLP/HTTP, JSON or protobuf). Kept for the week-earlier
-- baseline and a little more (a sweep deletes older ones).
CREATE TABLE log_records (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  service text NOT NULL,          -- the resource's service.name ('' when it has none)
  at timestamptz NOT NULL,        -- timeUnixNano, else observedTimeUnixNano, else when received
  severity_number integer,        -- OTLP SeverityNumber; >= 17 is an error
  severity_text text,
  body text NOT NULL,
  fingerprint text NOT NULL,      -- the masked message template (evidence/log-fingerprint.ts)
  attributes jsonb NOT NULL DEFAULT '{}',
  trace_id text,
  received_at timestamptz NOT NULL
);
CREATE INDEX log_records_org_at_idx ON log_records (org_id, at);
CREATE INDEX log_records_org_service_at_idx ON log_records (org_id, lower(service), at);

-- The AI provider of the organisation's "change assessment" role.
CREATE TABLE ai_providers (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('openai', 'anthropic')),
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  model text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
  key_sealed text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Every assessment asked of a provider (the hourly cap counts these).
CREATE TABLE ai_assessments (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  change_id text NOT NULL REFERENCES changes (id),
  report_version integer NOT NULL,
  status text NOT NULL CHECK (status IN ('done', 'unavailable')),
  reason text,
  asked_at timestamptz NOT NULL
);
CREATE INDEX ai_assessments_org_at_idx ON ai_assessments (org_id, asked_at);

-- A report version holds its evidence (body), the verdict, the AI assessment, and its rendered forms.
ALTER TABLE change_reports ADD COLUMN rule text;
ALTER TABLE change_reports ADD COLUMN verdict jsonb;
ALTER TABLE change_reports ADD COLUMN ai jsonb;
ALTER TABLE change_reports ADD COLUMN ai_impact text;
ALTER TABLE change_reports ADD COLUMN html text;
ALTER TABLE change_reports ADD COLUMN text_body text;
ALTER TABLE change_reports ADD COLUMN csv text;
ALTER TABLE changes ADD COLUMN ai_impact text;
