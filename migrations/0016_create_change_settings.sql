-- An organisation's change settings. This first column is which infrastructure under the affected
-- services a change silences by default; a change may override it.
CREATE TABLE change_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  silence_infra text NOT NULL DEFAULT 'dedicated' CHECK (silence_infra IN ('dedicated', 'all', 'none')),
  updated_at timestamptz NOT NULL
);
