-- Observed changes: what the organisation's connected sources saw change (pushes, merges, deploys,
-- syncs, Kubernetes and cloud writes, other tools' change events), whether or not anyone
-- registered it. A write that carries a planned change's id is that change's receipt instead.

-- Per organisation: how often sources are pulled, which Kubernetes namespaces hold CI service
-- accounts, and the two maps that link an observed change to catalogue services.
CREATE TABLE observed_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  -- 0 turns the scheduled pull off for the organisation.
  pull_interval_seconds integer NOT NULL DEFAULT 900 CHECK (pull_interval_seconds BETWEEN 0 AND 86400),
  ci_namespaces text[] NOT NULL DEFAULT '{flux-system,jenkins,gitlab-runner,tekton}',
  -- {repo_glob: service}: a repository's changes belong to that service.
  service_map jsonb NOT NULL DEFAULT '{}',
  -- {resource_glob: service | [services]}: extra links only (≤ 200 globs, ≤ 10 services each).
  resource_map jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL
);

-- One connection per sender: its kind picks the adapter, its secret proves the sender.
CREATE TABLE change_sources (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure', 'pagerduty', 'cloudevents', 'webhook')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- The intake secret (GitHub's HMAC key, GitLab's token, a bearer, PagerDuty's routing key): sealed,
  -- shown once at creation; its SHA-256 finds the connection of a PagerDuty routing key.
  secret_sealed text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  -- Per kind: apiUrl, repos, cluster, account, regions, endpoint, environment … (no secret here).
  config jsonb NOT NULL DEFAULT '{}',
  -- What a scheduled pull signs in with (a GitHub or GitLab token, an AWS key pair as JSON): sealed.
  credential_sealed text,
  -- A connection may opt out of the scheduled pull (webhooks still arrive).
  pull_enabled boolean NOT NULL DEFAULT true,
  recorded bigint NOT NULL DEFAULT 0,
  duplicate bigint NOT NULL DEFAULT 0,
  enriched bigint NOT NULL DEFAULT 0,
  noise bigint NOT NULL DEFAULT 0,
  capped bigint NOT NULL DEFAULT 0,
  denied bigint NOT NULL DEFAULT 0,
  ignored bigint NOT NULL DEFAULT 0,
  rejected bigint NOT NULL DEFAULT 0,
  receipts bigint NOT NULL DEFAULT 0,
  last_event_at timestamptz,
  last_pull_at timestamptz,
  last_pull_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (org_id, name)
);

CREATE TABLE observed_changes (
  -- obs_ + 32 random hex: the display id is CHG- and its first 8, like a planned change's.
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  -- A deleted connection leaves its records (the ledger keeps them): the link is cleared.
  source_id text REFERENCES change_sources (id) ON DELETE SET NULL,
  -- The connection's kind (github … webhook) and the event's kind (push, pr_merged, deploy, sync …).
  source text NOT NULL,
  kind text NOT NULL,
  -- The sender's own id of the event (delivery id, auditID, eventID, eventDataId …): the dedupe key.
  event_id text NOT NULL,
  title text NOT NULL,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  -- Who made it: {kind, name, id, detail{…}} (ObservedPrincipal).
  principal jsonb NOT NULL,
  action text,
  resource text,
  -- Where: {repo, ref, environment, cluster, namespace, account, region, subscription, resourceGroup}.
  location jsonb NOT NULL DEFAULT '{}',
  -- The resolved service ('' = unmapped), how it was found, and every linked service.
  service text NOT NULL DEFAULT '',
  service_via text NOT NULL DEFAULT 'unmapped' CHECK (service_via IN ('event', 'repo_map', 'unmapped')),
  services text[] NOT NULL DEFAULT '{}',
  -- Scrubbed of secrets, then cut at 2,048 characters.
  diff text,
  params jsonb,
  link text,
  -- A write the source refused (401/403, AccessDenied …): a denied attempt, not a change.
  denied boolean NOT NULL DEFAULT false,
  error_code text,
  outcome text CHECK (outcome IN ('succeeded', 'failed', 'degraded')),
  -- Judged by the unauthorized-change rules; null until judged.
  authorized boolean,
  authorized_reason text,
  -- Kubernetes service-account writes: cluster · account · UTC hour, for the 50-object cap.
  cap_bucket text,
  -- A CHG- id the write carried that matched no planned change (kept for the record).
  change_ref text,
  status text NOT NULL DEFAULT 'recorded' CHECK (status = 'recorded'),
  UNIQUE (org_id, source, event_id)
);
CREATE INDEX observed_changes_org_time_idx ON observed_changes (org_id, occurred_at DESC, id);
CREATE INDEX observed_changes_cap_idx ON observed_changes (org_id, cap_bucket, occurred_at) WHERE cap_bucket IS NOT NULL;
CREATE INDEX observed_changes_services_idx ON observed_changes USING gin (services);

-- A write that carried a planned change's id: that change's receipt, never a second row.
CREATE TABLE change_receipts (
  org_id text NOT NULL REFERENCES organizations (id),
  change_id text NOT NULL REFERENCES changes (id),
  source_id text REFERENCES change_sources (id) ON DELETE SET NULL,
  source text NOT NULL,
  kind text NOT NULL,
  event_id text NOT NULL,
  title text NOT NULL,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  principal jsonb NOT NULL,
  action text,
  resource text,
  location jsonb NOT NULL DEFAULT '{}',
  diff text,
  link text,
  PRIMARY KEY (org_id, source, event_id)
);
CREATE INDEX change_receipts_change_idx ON change_receipts (change_id, occurred_at);

-- Where each pull of a connection got to: 'scheduled', and 'manual' for a person's "last N minutes".
CREATE TABLE change_source_markers (
  source_id text NOT NULL REFERENCES change_sources (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name IN ('scheduled', 'manual')),
  position timestamptz NOT NULL,
  -- Said once when a pull reaches a cap (the K8s 50 objects an hour, 500 rows a tick).
  note text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (source_id, name)
);
