-- Component mappings of an organisation: names remembered for a catalogue entity (aliases) and
-- services added by hand until discovery reports them (manual services).

CREATE TABLE component_aliases (
  org_id text NOT NULL REFERENCES organizations (id),
  alias text NOT NULL CHECK (alias = lower(alias) AND length(alias) BETWEEN 1 AND 200),
  kind text NOT NULL,
  key text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  PRIMARY KEY (org_id, alias)
);

CREATE TABLE manual_services (
  org_id text NOT NULL REFERENCES organizations (id),
  key text NOT NULL CHECK (key ~ '^svc:[a-z0-9][a-z0-9-]{0,99}$'),
  name text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  merged_at timestamptz,
  PRIMARY KEY (org_id, key)
);
