-- The server's own writes at start-up (the first organisation, its owner, the reissued sign-in
-- link) are neither a person's command line nor the job worker: they get a source of their own.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_source_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_source_check
  CHECK (source IN ('ui', 'api', 'cli', 'webhook', 'scheduler', 'system'));
