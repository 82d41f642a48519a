-- How long an observed call edge or placement stays fresh without being seen again.
CREATE TABLE catalogue_settings (
  org_id text PRIMARY KEY REFERENCES organizations (id),
  stale_after_days integer NOT NULL DEFAULT 7 CHECK (stale_after_days BETWEEN 1 AND 365),
  last_sweep_at timestamptz
);
CREATE INDEX catalogue_links_last_seen_idx ON catalogue_links (org_id, last_seen) WHERE NOT stale;
