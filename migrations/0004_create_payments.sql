-- One row per payment attempt (docs/product.md#stored-entities and #payment-lifecycle). The payments
-- work moves `status` forward only: created -> pending -> paid -> refunded, or failed.
CREATE TABLE payments (
  id TEXT PRIMARY KEY,                      -- pay_<random>: our order id, sent to the provider
  user_id TEXT REFERENCES users (id) ON DELETE SET NULL, -- NULL once the account is deleted
  provider TEXT NOT NULL,                   -- paypal | cashfree
  provider_order_id TEXT,                   -- the provider's order id, once it has one
  plan_id TEXT NOT NULL,                    -- standard | premium
  amount_minor INTEGER NOT NULL,            -- cents or paise
  currency TEXT NOT NULL,                   -- USD | INR
  status TEXT NOT NULL DEFAULT 'created',
  plan_expires_at INTEGER,                  -- the plan's end this payment set, once paid
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX payments_user_created ON payments (user_id, created_at);
CREATE UNIQUE INDEX payments_provider_order ON payments (provider, provider_order_id);
