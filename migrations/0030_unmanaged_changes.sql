-- Unauthorized changes and denied attempts: who made each observed write (its principal class),
-- what vouched for it (its reference), the change tickets an ITSM tool sends, and the
-- organisation's rule. Forward-only and additive: a server of the previous release ignores the
-- new columns and tables.

-- Who made the write, in five words, and why we say so.
ALTER TABLE observed_changes ADD COLUMN principal_class text
  CHECK (principal_class IN ('human', 'pipeline', 'changeledger', 'system', 'unknown'));
ALTER TABLE observed_changes ADD COLUMN principal_class_reason text;
-- Which reference vouched for it (null: not judged, or none found).
ALTER TABLE observed_changes ADD COLUMN reference text
  CHECK (reference IN ('change_id', 'itsm_ticket', 'change_window', 'authorized_principal', 'kept'));
-- The revert a person would run, drafted from the audit event at intake (RevertDraft); never run by us.
ALTER TABLE observed_changes ADD COLUMN revert jsonb;
CREATE INDEX observed_changes_unauthorized_idx ON observed_changes (org_id, occurred_at DESC) WHERE authorized = false;

-- One row per organisation once anything is saved; the defaults below hold until then.
CREATE TABLE unmanaged_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  -- The reference rule: every applied audit-log write needs a reference. Owners only switch it.
  reference_rule boolean NOT NULL DEFAULT false,
  -- Globs over a principal's names (system:serviceaccount:ci:*, arn:aws:iam::*:role/deploy-*).
  authorized_principals text[] NOT NULL DEFAULT '{}',
  -- Which ITSM tickets vouch for a write (ItsmChangeMatch); every field optional.
  itsm_change_match jsonb NOT NULL DEFAULT '{}',
  -- Denied attempts open or join a case per principal · account · UTC hour.
  denied_access_to_secops boolean NOT NULL DEFAULT true,
  -- The ITSM webhook token: its SHA-256 only, shown once when minted; minting again replaces it.
  itsm_token_hash text UNIQUE,
  itsm_token_minted_at timestamptz,
  updated_at timestamptz NOT NULL
);

-- Change tickets from ServiceNow and Jira; a re-send refreshes the row.
CREATE TABLE itsm_tickets (
  org_id text NOT NULL REFERENCES organizations (id),
  system text NOT NULL CHECK (system IN ('servicenow', 'jira')),
  key text NOT NULL,
  title text NOT NULL,
  state text,
  approval text,
  planned_start timestamptz,
  planned_end timestamptz,
  items text[] NOT NULL DEFAULT '{}',
  assignment_group text,
  link text,
  tool_updated_at timestamptz,
  -- Only a ticket that last arrived carrying the organisation's ITSM token counts as a reference.
  verified boolean NOT NULL,
  -- Why it does not count, in words, when it does not (no token, an old token).
  unverified_reason text,
  first_received_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, system, key)
);
CREATE INDEX itsm_tickets_window_idx ON itsm_tickets (org_id, planned_end) WHERE verified;
