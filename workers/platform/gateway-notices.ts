/**
 * What the use cases that change a key or a plan tell the gateway, which keeps cached copies of
 * both (isolate memory, KV) and judges them by the account's Meter. The use cases own this port
 * and the gateway implements it (workers/gateway/meter-notices.ts), so platform/ never imports
 * gateway/.
 */
export interface GatewayNotices {
  /** One of the account's keys was revoked at `at`. */
  keyRevoked(userId: string, key: { id: string; hash: string }, at: number): Promise<void>;
  /** The account's plan moved; `version` is its `plan_version` now. */
  planChanged(userId: string, version: number): Promise<void>;
}
