/** Test data with random parts, so tests sharing a file's storage never collide. */
export function randomSuffix(): string {
  return crypto.randomUUID().slice(0, 8);
}

export function randomEmail(prefix = "dev"): string {
  return `${prefix}-${randomSuffix()}@example.com`;
}

/** A client address of its own for each test, so per-address throttles start from zero. */
export function randomClientAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(3));
  return `203.0.${bytes[0]}.${bytes[1]}`;
}
