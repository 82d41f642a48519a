-- Signed checkpoints of each organisation's ledger: a C2SP signed note over the chain's head
-- (sequence and hash) at a moment, signed with the installation's Ed25519 key. Listed newest first
-- (GET /api/audit/checkpoints, the index below); the hourly job reads the newest to see whether
-- the head moved. Append-only like audit_events: a checkpoint once given out is never rewritten.
-- Additive: the previous release's servers neither read nor write it.
CREATE TABLE audit_checkpoints (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organizations (id),
  seq bigint NOT NULL CHECK (seq >= 0),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  signed_at timestamptz NOT NULL,
  key_id text NOT NULL CHECK (key_id ~ '^[0-9a-f]{8}$'),
  note text NOT NULL
);
CREATE INDEX audit_checkpoints_newest ON audit_checkpoints (org_id, signed_at DESC, id DESC);

CREATE FUNCTION audit_checkpoints_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_checkpoints is append-only: % refused', TG_OP
    USING ERRCODE = 'P0001', HINT = 'checkpoints can only be inserted';
END;
$$;

CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_refuse_change();
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION audit_checkpoints_refuse_change();

-- The installation's checkpoint signing key (unless CHANGELEDGER_CHECKPOINT_KEY gives one): made by
-- the first process that signs, sealed with the data key like every stored secret, so that every
-- replica on this database signs with the same key and a backup keeps it.
CREATE TABLE checkpoint_signing_key (
  id smallint PRIMARY KEY CHECK (id = 1),
  private_key_sealed text NOT NULL,
  created_at timestamptz NOT NULL
);
