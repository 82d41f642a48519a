-- Cases: what a person answers when writes had no reference (an unauthorized change: keep it or
-- roll it back) or a source refused someone (denied attempts: acknowledge). One case per kind,
-- account, principal and UTC clock hour; later writes of that hour join it.
CREATE TABLE unmanaged_cases (
  -- case_ + 32 random hex; shown as CASE- and its first 8.
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  kind text NOT NULL CHECK (kind IN ('unauthorized_change', 'denied_access')),
  -- unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour>.
  correlation_key text NOT NULL,
  principal text NOT NULL,
  account text NOT NULL,
  hour timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'rollback_approved', 'rolled_back', 'kept', 'resolved')),
  rollback_approved_by text REFERENCES users (id),
  rollback_approved_at timestamptz,
  -- Who closed it (kept, rolled back or acknowledged), when, and their note.
  closed_by text REFERENCES users (id),
  closed_at timestamptz,
  note text,
  opened_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (org_id, correlation_key)
);
CREATE INDEX unmanaged_cases_org_idx ON unmanaged_cases (org_id, status, updated_at DESC);

ALTER TABLE observed_changes ADD COLUMN case_id text REFERENCES unmanaged_cases (id);
CREATE INDEX observed_changes_case_idx ON observed_changes (case_id) WHERE case_id IS NOT NULL;
