/** Payment history (docs/product.md#payment-history). */
export const TRANSACTIONS_PAGE_SIZE = 10;

export interface PaymentRecord {
  id: string;
  date: number;
  amount: number;
  currency: string;
  method: string;
  status: string;
  planId: string;
  planExpiresAt: number | null;
}

interface PaymentRow {
  id: string;
  created_at: number;
  amount_minor: number;
  currency: string;
  provider: string;
  status: string;
  plan_id: string;
  plan_expires_at: number | null;
}

const METHOD_NAMES: Record<string, string> = { paypal: "PayPal", cashfree: "Cashfree" };

export async function listPayments(
  db: D1Database,
  userId: string,
  page: number,
  limit: number = TRANSACTIONS_PAGE_SIZE,
): Promise<{ payments: PaymentRecord[]; totalPages: number; page: number }> {
  const [rows, count] = await db.batch<PaymentRow | { total: number }>([
    db
      .prepare(
        `SELECT id, created_at, amount_minor, currency, provider, status, plan_id, plan_expires_at FROM payments
         WHERE user_id = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
      )
      .bind(userId, limit, (page - 1) * limit),
    db.prepare(`SELECT COUNT(*) AS total FROM payments WHERE user_id = ?`).bind(userId),
  ]);
  const total = (count?.results[0] as { total: number } | undefined)?.total ?? 0;
  return {
    page,
    totalPages: Math.max(1, Math.ceil(total / limit)),
    payments: ((rows?.results ?? []) as PaymentRow[]).map((row) => ({
      id: row.id,
      date: row.created_at,
      // Minor units on the wire too: the client formats them with the currency's digits.
      amount: row.amount_minor,
      currency: row.currency,
      method: METHOD_NAMES[row.provider] ?? row.provider,
      status: row.status,
      planId: row.plan_id,
      planExpiresAt: row.plan_expires_at,
    })),
  };
}
