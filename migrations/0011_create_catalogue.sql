-- The service catalogue: entities of every kind and the links between them (calls, runs-on,
-- member). Each row remembers which import source reported it, so a re-import can mark what that
-- source no longer reports as stale instead of deleting it.

CREATE TABLE catalogue_entities (
  org_id text NOT NULL REFERENCES organizations (id),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 500),
  kind text NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  source text NOT NULL,
  stale boolean NOT NULL DEFAULT false,
  engine text,
  tier text CHECK (tier IN ('critical', 'important', 'standard')),
  owner text,
  team text,
  environment text,
  attrs jsonb NOT NULL DEFAULT '{}',
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX catalogue_entities_kind_idx ON catalogue_entities (org_id, kind, key);
CREATE INDEX catalogue_entities_source_idx ON catalogue_entities (org_id, source);

CREATE TABLE catalogue_links (
  org_id text NOT NULL REFERENCES organizations (id),
  from_key text NOT NULL,
  to_key text NOT NULL,
  via text NOT NULL CHECK (via IN ('calls', 'runs-on', 'member')),
  source text NOT NULL,
  stale boolean NOT NULL DEFAULT false,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (org_id, from_key, to_key, via),
  FOREIGN KEY (org_id, from_key) REFERENCES catalogue_entities (org_id, key),
  FOREIGN KEY (org_id, to_key) REFERENCES catalogue_entities (org_id, key)
);
CREATE INDEX catalogue_links_to_idx ON catalogue_links (org_id, to_key);
CREATE INDEX catalogue_links_source_idx ON catalogue_links (org_id, source);
