import { data } from "react-router";
import { NotFound } from "~/components/not-found";
import { pageMeta } from "~/lib/page-meta";

// Any path no other route claims: the page says so, and so does the status.
export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => pageMeta("Page not found", "The page you asked for is not on Portico.", { noindex: true });

export default function NotFoundRoute() {
  return <NotFound />;
}
