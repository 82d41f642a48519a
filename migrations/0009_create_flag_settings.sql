-- Per-organisation flag policy: the ticket reference pattern a high-risk reason may carry.
CREATE TABLE flag_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  ticket_pattern text CHECK (length(ticket_pattern) <= 200),
  updated_at timestamptz NOT NULL
);
