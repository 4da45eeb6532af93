/** Admin: users with their plan and this month's calls, searchable by email. */
import { Form } from "react-router";
import { titled } from "~/lib/page-meta";
import { serverContext } from "~/lib/session.server";
import { listUsersForAdmin } from "~workers/platform/admin";
import type { Route } from "./+types/route";

export const meta = () => [{ title: titled("Users and calls") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams.get("q")?.trim().slice(0, 100) ?? "";
  const users = await listUsersForAdmin(serverContext(context).env.DB, { search, now: Date.now() });
  return { search, users };
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

export default function UserApiCalls({ loaderData }: Route.ComponentProps) {
  const { search, users } = loaderData;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Users and calls</h1>
      <Form method="get" role="search" className="flex max-w-md gap-2">
        <label htmlFor="admin-q" className="sr-only">
          Search by email
        </label>
        <input
          id="admin-q"
          name="q"
          type="search"
          defaultValue={search}
          placeholder="Search by email"
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white">
          Search
        </button>
      </Form>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[48rem] text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-700">
              {["Email", "Name", "Plan", "Plan ends", "Active keys", "Calls this month", "Errors", "Joined"].map(
                (column) => (
                  <th key={column} scope="col" className="py-2 pr-4 font-semibold">
                    {column}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {users.length === 0 && (
              <tr>
                <td colSpan={8} className="py-6 text-center text-slate-500">
                  No user matches.
                </td>
              </tr>
            )}
            {users.map((user) => (
              <tr key={user.id} className="border-b border-slate-100 dark:border-slate-800">
                <td className="py-2 pr-4">{user.email}</td>
                <td className="py-2 pr-4">{user.name}</td>
                <td className="py-2 pr-4 capitalize">{user.planId}</td>
                <td className="py-2 pr-4">{user.planExpiresAt ? dateFormat.format(user.planExpiresAt) : "—"}</td>
                <td className="py-2 pr-4">{user.activeKeys}</td>
                <td className="py-2 pr-4">{user.callsThisMonth.toLocaleString("en-US")}</td>
                <td className="py-2 pr-4">{user.errorsThisMonth.toLocaleString("en-US")}</td>
                <td className="py-2 pr-4">{dateFormat.format(user.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
