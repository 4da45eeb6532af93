/**
 * In-memory parts for the use cases and the gateway, so a test sees what they were told to do
 * without the real piece.
 */
import type { GatewayNotices } from "~workers/gateway/meter-notices";

/** Gateway notices that only remember what they were told (the real ones are in meter-notices.ts). */
export function recordingNotices(): GatewayNotices & {
  revoked: { userId: string; keyId: string; hash: string; at: number }[];
  planVersions: { userId: string; version: number }[];
} {
  const revoked: { userId: string; keyId: string; hash: string; at: number }[] = [];
  const planVersions: { userId: string; version: number }[] = [];
  return {
    revoked,
    planVersions,
    keyRevoked: async (userId, key, at) => {
      revoked.push({ userId, keyId: key.id, hash: key.hash, at });
    },
    planChanged: async (userId, version) => {
      planVersions.push({ userId, version });
    },
  };
}
