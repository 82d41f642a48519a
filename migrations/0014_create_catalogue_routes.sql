-- The routes each caller uses on each callee, from traces: the contract of a call edge.
CREATE TABLE catalogue_routes (
  org_id text NOT NULL REFERENCES organizations (id),
  caller_key text NOT NULL,
  callee_key text NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  calls bigint NOT NULL,
  error_share double precision NOT NULL,
  p95_ms double precision NOT NULL,
  sample_path text,
  probe boolean NOT NULL,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (org_id, caller_key, callee_key, method, route)
);
