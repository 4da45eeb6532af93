import { data } from "react-router";
import { NotFound } from "~/components/not-found";
import { titled } from "~/lib/page-meta";

// Any path no other route claims: the page says so, and so does the status.
export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => [{ title: titled("Page not found") }, { name: "robots", content: "noindex" }];

export default function NotFoundRoute() {
  return <NotFound />;
}
