/** Signing out in the browser (docs/product.md#sign-in-out): clear the state, tell the server, go home. */
import { apiRequest } from "./api-client";
import { AUTH_USER_KEY } from "./auth-user";
import { forgetApiKey } from "./stored-api-key";

export async function signOut(): Promise<void> {
  try {
    await apiRequest("/users/logout", { method: "POST", credentials: true });
  } catch {
    console.error("Logout failed");
  }
  try {
    localStorage.removeItem(AUTH_USER_KEY);
  } catch {
    // Storage disabled: nothing was kept there either.
  }
  forgetApiKey();
  window.location.assign("/");
}
