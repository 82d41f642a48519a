-- "Everything alice@example.com did": the audit can be filtered by the actor's display name too.
CREATE INDEX audit_events_actor_name_idx ON audit_events (org_id, actor_name, occurred_at DESC, seq DESC);
