-- Monitoring sources (a Prometheus job, an alert rule group, a monitor) and the catalogue keys they
-- stand for: a source of a single service is held with that service in a blast radius. Like
-- entities, each row remembers the import source that reported it, so a re-import marks what that
-- source no longer lists as stale instead of deleting it.

CREATE TABLE catalogue_sources (
  org_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (length(id) BETWEEN 1 AND 200),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  services text[] NOT NULL DEFAULT '{}',
  entities text[] NOT NULL DEFAULT '{}',
  source text NOT NULL,
  stale boolean NOT NULL DEFAULT false,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX catalogue_sources_source_idx ON catalogue_sources (org_id, source);
