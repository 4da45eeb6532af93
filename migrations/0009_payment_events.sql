-- Every provider webhook, recorded once (payments issue): the (provider, event key) pair is the
-- primary key, so a redelivered event finds its row and changes nothing. `claim_id` is written
-- by the delivery that inserted the row; the payment and plan changes in the same D1 batch
-- apply only where that claim is found, so of ten concurrent copies exactly one acts.
CREATE TABLE payment_events (
  provider TEXT NOT NULL,                   -- paypal | cashfree
  event_key TEXT NOT NULL,                  -- PayPal's event id; Cashfree's idempotency key
  event_type TEXT NOT NULL,                 -- e.g. PAYMENT.CAPTURE.COMPLETED
  payment_id TEXT,                          -- ours, when the event names one we know
  claim_id TEXT NOT NULL,
  outcome TEXT NOT NULL,                    -- what the event led to: paid, refunded, unchanged, …
  received_at INTEGER NOT NULL,
  PRIMARY KEY (provider, event_key)
);
CREATE INDEX payment_events_payment ON payment_events (payment_id);
-- The reconciliation cron looks for payments still open after 15 minutes.
CREATE INDEX payments_open ON payments (status, updated_at);
