-- The activation of a paid payment happens exactly once: the statement that marks a payment
-- paid also writes a fresh activation id, and the plan change in the same batch applies only
-- where that id is found, so a second, concurrent confirmation changes nothing.
ALTER TABLE payments ADD COLUMN activation_id TEXT;
ALTER TABLE payments ADD COLUMN paid_at INTEGER;
