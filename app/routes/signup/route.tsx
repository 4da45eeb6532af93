import { redirect } from "react-router";
import type { Route } from "./+types/route";

// `/signup?ref=CODE` is the link people share: it opens sign-up with the code kept.
export function loader({ request }: Route.LoaderArgs) {
  const ref = new URL(request.url).searchParams.get("ref");
  const query = new URLSearchParams({ mode: "signup" });
  if (ref) query.set("ref", ref.slice(0, 32));
  return redirect(`/user/authenticate?${query}`);
}
