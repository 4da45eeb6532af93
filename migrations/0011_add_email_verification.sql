-- Proven email addresses (security issue #10): admin and privileged rights, API keys, buying a
-- plan and redeeming a referral all need an address the account has shown it can read.

-- When the address was proven: a verification link opened, or an identity provider's ID token
-- that says `email_verified`. NULL until then. Accounts made before this migration start
-- unproven: their owners verify with the link the pages offer.
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
-- The referral code given at a password sign-up, redeemed only once the address is proven, so
-- unproven sign-ups cannot farm referral bonuses.
ALTER TABLE users ADD COLUMN pending_referral_code TEXT;

CREATE TABLE email_verifications (
  token_hash TEXT PRIMARY KEY,              -- hex SHA-256 of the emailed token; the token is never stored
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email TEXT NOT NULL,                      -- the address the link was sent to: it proves only that one
  expires_at INTEGER NOT NULL,              -- 24 hours after it was made
  used_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX email_verifications_user_id ON email_verifications (user_id);

-- Newsletter double opt-in: a subscription counts once its confirmation link is opened.
ALTER TABLE newsletter_subscriptions ADD COLUMN confirmed_at INTEGER;
ALTER TABLE newsletter_subscriptions ADD COLUMN confirm_token_hash TEXT;
CREATE UNIQUE INDEX newsletter_subscriptions_confirm_token_hash ON newsletter_subscriptions (confirm_token_hash);
