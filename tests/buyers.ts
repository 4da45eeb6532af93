/** Buyers for the payment tests: a signed-up account and its plan as D1 holds it. */
import { env, SELF } from "cloudflare:test";
import { callApi, cookieFrom, randomEmail, STRONG_PASSWORD } from "./factories";

export async function signUpBuyer(referralCode?: string) {
  const email = randomEmail("buyer");
  const response = await callApi(SELF, "POST", "/api/users/signup", {
    body: { email, password: STRONG_PASSWORD, referralCode },
  });
  const body = await response.json<{ referralCode: string }>();
  const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
  return { cookie: cookieFrom(response), userId: user?.id ?? "", referralCode: body.referralCode };
}

export function planOf(userId: string) {
  return env.DB.prepare("SELECT plan_id, plan_expires_at FROM users WHERE id = ?")
    .bind(userId)
    .first<{ plan_id: string; plan_expires_at: number | null }>();
}
