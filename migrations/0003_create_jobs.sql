-- Durable timers and the outbox: rows a worker claims when due, runs once, and retries with backoff.

CREATE TABLE jobs (
  id text PRIMARY KEY,
  org_id text REFERENCES organizations (id),
  kind text NOT NULL,
  dedupe_key text UNIQUE,
  payload jsonb NOT NULL,
  run_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'done', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts >= 1),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status = 'pending';
CREATE INDEX jobs_lease_idx ON jobs (locked_until) WHERE status = 'running';
