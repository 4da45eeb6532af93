-- Accounts, sessions, API keys, password resets, referrals and the development mail outbox.

CREATE TABLE users (
  id TEXT PRIMARY KEY,                      -- usr_<random>
  email TEXT NOT NULL UNIQUE,               -- trimmed, lower-cased
  name TEXT NOT NULL DEFAULT '',            -- shown as the username
  avatar_url TEXT,
  password_hash TEXT,                       -- pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>; NULL for OIDC-only accounts
  oidc_subject TEXT UNIQUE,                 -- "<issuer> <sub>" of a linked identity provider account
  session_version INTEGER NOT NULL DEFAULT 1, -- bumped to end every session (sign out everywhere, reset)
  referral_code TEXT NOT NULL UNIQUE,       -- this user's own code to share
  plan_id TEXT NOT NULL DEFAULT 'free',     -- free | standard | premium
  plan_expires_at INTEGER,                  -- epoch ms; NULL for the free plan
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,                      -- ses_<random>; rotates at every login
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,                 -- users.session_version when it was made
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user_id ON sessions (user_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,                      -- key_<random>
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,                     -- the first characters, to recognise a key
  hash TEXT NOT NULL UNIQUE,                -- hex SHA-256 of the whole key; the key itself is never stored
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_keys_user_id ON api_keys (user_id);

CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY,              -- hex SHA-256 of the emailed token
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX password_resets_user_id ON password_resets (user_id);

CREATE TABLE referrals (
  referred_user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  referrer_user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
  code TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX referrals_referrer_user_id ON referrals (referrer_user_id);

-- Development only: mail the outbox provider "sends", shown at /dev/mail.
CREATE TABLE mail_outbox (
  id TEXT PRIMARY KEY,                      -- mail_<random>
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
