-- The European Central Bank's euro reference rates, one row per business day and currency
-- (docs/decisions/049-currency-converter-from-ecb-rates.md). The cron job
-- (workers/providers/ecb/refresh.ts) writes them; the Currency Converter reads them. `rate` is
-- units of `currency` per euro exactly as the ECB wrote it: a decimal of at most about ten
-- significant digits, which a REAL (an IEEE double) holds to the digit, so cross rates computed
-- from it lose nothing the ECB published. Only days the ECB published are stored: weekends and
-- TARGET holidays have no rows, which is what makes "the previous business day" one lookup.
CREATE TABLE exchange_rates (
  day TEXT NOT NULL,            -- YYYY-MM-DD, the ECB's `time`
  currency TEXT NOT NULL,       -- ISO 4217, never EUR
  rate REAL NOT NULL CHECK (rate > 0),
  PRIMARY KEY (day, currency)
) WITHOUT ROWID;

-- A currency's first and last day (the Currency Converter's "discontinued" and "not yet
-- published" answers) and its own history read by currency.
CREATE INDEX exchange_rates_by_currency ON exchange_rates (currency, day);
