/** Referral facts for the dashboard (the bonus itself is applied by the gateway). */
export async function referralSummary(
  db: D1Database,
  userId: string,
): Promise<{ referredBy: string | null; referredCount: number }> {
  const [referred, count] = await db.batch<{ code: string } | { count: number }>([
    db.prepare(`SELECT code FROM referrals WHERE referred_user_id = ?`).bind(userId),
    db.prepare(`SELECT COUNT(*) AS count FROM referrals WHERE referrer_user_id = ?`).bind(userId),
  ]);
  const code = (referred?.results[0] as { code: string } | undefined)?.code ?? null;
  const total = (count?.results[0] as { count: number } | undefined)?.count ?? 0;
  return { referredBy: code, referredCount: total };
}
