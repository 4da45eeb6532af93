/**
 * Rate-limit headers: the IETF httpapi draft's `RateLimit-Policy` and `RateLimit` (draft 11
 * structured-field form, one `burst` and one `monthly` policy) and the widespread
 * `X-RateLimit-*` trio, which describes the monthly quota (the limit people plan around).
 */
import type { MeterCounts } from "./meter";

export function rateLimitHeaders(counts: MeterCounts, monthlyWindowSeconds: number): Record<string, string> {
  return {
    "RateLimit-Policy": `"burst";q=${counts.burstLimit};w=1, "monthly";q=${counts.monthlyLimit};w=${monthlyWindowSeconds}`,
    RateLimit: `"burst";r=${counts.burstRemaining};t=${counts.burstResetSeconds}, "monthly";r=${counts.monthlyRemaining};t=${counts.monthlyResetSeconds}`,
    "X-RateLimit-Limit": String(counts.monthlyLimit),
    "X-RateLimit-Remaining": String(counts.monthlyRemaining),
    "X-RateLimit-Reset": String(counts.monthlyResetSeconds),
  };
}
