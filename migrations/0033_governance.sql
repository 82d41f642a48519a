-- Governance I: change classes, standard-change templates, risk tiers, change and freeze windows,
-- and approvals bound to the content they approved. Forward-only and additive: every new column
-- has a default or is nullable, so a server of the previous release keeps working on this schema
-- (it registers normal changes without a tier, and never reads the new tables).

-- Standard-change templates: the pre-approved operation. One row per template; `version` grows at
-- every edit, and an edit un-certifies it (certified_version then lags version).
CREATE TABLE change_templates (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  kind text NOT NULL,
  services text[] NOT NULL,
  environments text[] NOT NULL DEFAULT '{}',
  pipelines text[] NOT NULL DEFAULT '{}',
  repos text[] NOT NULL DEFAULT '{}',
  max_blast_services integer NOT NULL,
  hops integer NOT NULL CHECK (hops BETWEEN 1 AND 2),
  description text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  state text NOT NULL CHECK (state IN ('draft', 'certified', 'withdrawn')),
  author_id text NOT NULL REFERENCES users (id),
  certified_by text REFERENCES users (id),
  certified_at timestamptz,
  certified_version integer,
  withdrawn_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX change_templates_name_idx ON change_templates (org_id, lower(name));

-- Change and freeze windows: one shape. `schedule` is {type: rrule, rrule, start, durationMinutes,
-- timeZone, exdates} or {type: once, start, end}; `scope` is {type: all | services | environments
-- | criticality, …}. An imported window remembers its feed and the event's UID, so a re-import
-- updates it in place.
CREATE TABLE change_windows (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('change', 'freeze')),
  schedule jsonb NOT NULL,
  scope jsonb NOT NULL,
  description text,
  feed text,
  source_uid text,
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX change_windows_org_idx ON change_windows (org_id);
CREATE UNIQUE INDEX change_windows_import_idx ON change_windows (org_id, feed, source_uid) WHERE feed IS NOT NULL;

-- A counter per organisation, bumped in the same transaction as every write to its windows or
-- templates: each server caches the compiled windows and the certified templates under it, so a
-- registration reads one small row instead of the windows themselves, and every replica sees a write
-- at its next read.
CREATE TABLE governance_versions (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  windows bigint NOT NULL DEFAULT 0,
  templates bigint NOT NULL DEFAULT 0
);

-- What each change is, and what it was approved as.
ALTER TABLE changes ADD COLUMN change_class text NOT NULL DEFAULT 'normal' CHECK (change_class IN ('standard', 'normal', 'emergency'));
ALTER TABLE changes ADD COLUMN change_class_source text NOT NULL DEFAULT 'default';
ALTER TABLE changes ADD COLUMN change_class_reason text NOT NULL DEFAULT 'registered before change classes existed';
ALTER TABLE changes ADD COLUMN change_class_cause text;
ALTER TABLE changes ADD COLUMN template_id text REFERENCES change_templates (id);
ALTER TABLE changes ADD COLUMN template_version integer;
ALTER TABLE changes ADD COLUMN emergency jsonb;
ALTER TABLE changes ADD COLUMN risk_tier text CHECK (risk_tier IN ('L1', 'L2', 'L3'));
ALTER TABLE changes ADD COLUMN risk_reason text;
ALTER TABLE changes ADD COLUMN window_bypassed jsonb;
ALTER TABLE changes ADD COLUMN approval_digest text;
ALTER TABLE changes ADD COLUMN approved_digest text;
CREATE INDEX changes_template_idx ON changes (template_id) WHERE template_id IS NOT NULL;

-- Each approval records the digest of the content it approved.
ALTER TABLE change_approvals ADD COLUMN digest text;

-- Approvals voided by an edit after them (or by a class drop): kept here, out of the count.
CREATE TABLE change_voided_approvals (
  change_id text NOT NULL REFERENCES changes (id),
  user_id text NOT NULL REFERENCES users (id),
  decision text NOT NULL,
  comment text,
  critical boolean NOT NULL,
  at timestamptz NOT NULL,
  digest text,
  voided_at timestamptz NOT NULL,
  cause text NOT NULL,
  PRIMARY KEY (change_id, user_id, at)
);

ALTER TABLE change_settings ADD COLUMN change_class_policy text NOT NULL DEFAULT 'normal_by_default' CHECK (change_class_policy IN ('normal_by_default', 'standard_by_default'));
ALTER TABLE change_settings ADD COLUMN l1_approvals integer NOT NULL DEFAULT 0 CHECK (l1_approvals BETWEEN 0 AND 25);
