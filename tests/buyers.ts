/** Buyers for the payment tests: a signed-up account and its plan as D1 holds it. */
import { env, SELF } from "cloudflare:test";
import { randomEmail, signUpVerified } from "./factories";

export async function signUpBuyer(referralCode?: string) {
  const signedUp = await signUpVerified(SELF, { email: randomEmail("buyer"), referralCode });
  const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?")
    .bind(signedUp.email)
    .first<{ id: string }>();
  return { cookie: signedUp.cookie, userId: user?.id ?? "", referralCode: String(signedUp.body.referralCode) };
}

export function planOf(userId: string) {
  return env.DB.prepare("SELECT plan_id, plan_expires_at FROM users WHERE id = ?")
    .bind(userId)
    .first<{ plan_id: string; plan_expires_at: number | null }>();
}
