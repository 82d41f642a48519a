-- Failed sign-ins, one-time-link attempts and password changes, counted per account and per
-- address so every replica applies the same backoff. The account is the SHA-256 of the e-mail as
-- typed (lower-cased), known or not, so an unknown e-mail is counted like a real one and no typed
-- text is kept; the address is an IPv4 address or an IPv6 /64.
CREATE TABLE auth_throttles (
  scope text NOT NULL CHECK (scope IN ('account', 'address')),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 100),
  failures integer NOT NULL CHECK (failures >= 1),
  last_failure_at timestamptz NOT NULL,
  PRIMARY KEY (scope, subject)
);
CREATE INDEX auth_throttles_last_failure_idx ON auth_throttles (last_failure_at);
