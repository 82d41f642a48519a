-- What a batch sender's delivery became, by the SHA-256 of its bytes: a Kubernetes audit webhook,
-- EventBridge or an Event Hub bridge resends a whole batch, byte for byte, when it missed our
-- answer. Such a retry is answered from here without being read again. Kept for a day.
CREATE TABLE change_source_deliveries (
  source_id text NOT NULL REFERENCES change_sources (id) ON DELETE CASCADE,
  digest text NOT NULL,
  -- {events, noise, ignored, duplicate, capped, rejected: [{index, field, message}]} of the first reading.
  answer jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (source_id, digest)
);
CREATE INDEX change_source_deliveries_age_idx ON change_source_deliveries (source_id, received_at);
