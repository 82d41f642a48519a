-- Deliveries: every signed callback and ticket step a change causes, written in the transaction of
-- the change event, then sent by the worker. One row per message (the same id on every retry),
-- one row per attempt. Ticket steps of a change run in order (seq): a step waits while an
-- earlier one is still being sent.
CREATE TABLE deliveries (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  change_id text NOT NULL REFERENCES changes (id),
  channel text NOT NULL CHECK (channel IN ('callback', 'ticket')),
  seq integer NOT NULL,
  event text NOT NULL,
  action text CHECK (action IN ('create', 'update', 'test')),
  body text NOT NULL,             -- the message as first written (JSON), byte for byte on every retry
  state text NOT NULL CHECK (state IN ('waiting', 'pending', 'retrying', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_status integer,
  last_error text,
  note text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  UNIQUE (change_id, channel, seq)
);
CREATE INDEX deliveries_waiting ON deliveries (change_id, channel, seq) WHERE state = 'waiting';

CREATE TABLE delivery_attempts (
  delivery_id text NOT NULL REFERENCES deliveries (id),
  attempt integer NOT NULL,
  at timestamptz NOT NULL,
  http_status integer,
  duration_ms integer NOT NULL,
  error text,
  via text NOT NULL,
  address text,
  PRIMARY KEY (delivery_id, attempt)
);

-- The ticket a change got ({kind, id, key, url}).
ALTER TABLE changes ADD COLUMN ticket jsonb;

-- The organisation's one ticket destination: its fields in clear, its secret sealed.
ALTER TABLE change_settings
  ADD COLUMN ticketing jsonb,
  ADD COLUMN ticketing_secret_sealed text;
