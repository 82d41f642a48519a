-- Organisations, people, their roles, browser sessions, one-time sign-in links and API tokens.

CREATE TABLE organizations (
  id text PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  created_at timestamptz NOT NULL
);

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
  password_hash text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  org_id text NOT NULL REFERENCES organizations (id),
  user_id text NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  org_id text NOT NULL REFERENCES organizations (id),
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE sign_in_links (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  org_id text NOT NULL REFERENCES organizations (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE api_tokens (
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9]{8}$'),
  org_id text NOT NULL REFERENCES organizations (id),
  user_id text NOT NULL REFERENCES users (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  scopes text[] NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_tokens_org_idx ON api_tokens (org_id, created_at DESC);
