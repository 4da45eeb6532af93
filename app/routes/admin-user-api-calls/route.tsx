/** Admin: users with their plan and this month's calls, searchable by email. */
import { data, Form, useNavigation } from "react-router";
import { titled } from "~/lib/page-meta";
import { requireAdmin, serverContext } from "~/lib/session.server";
import { forgetAccountKeys } from "~workers/gateway/api-key-auth";
import { grantPlan, GrantPlanSchema, listUsersForAdmin } from "~workers/platform/admin";
import type { Route } from "./+types/route";

export const meta = () => [{ title: titled("Users and calls") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams.get("q")?.trim().slice(0, 100) ?? "";
  const users = await listUsersForAdmin(serverContext(context).env.DB, { search, now: Date.now() });
  return { search, users };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const { env } = serverContext(context);
  const form = Object.fromEntries(await request.formData());
  const parsed = GrantPlanSchema.safeParse(form);
  const targetUserId = String(form.userId ?? "");
  if (!parsed.success)
    return data({ userId: targetUserId, message: parsed.error.issues[0]?.message ?? "Invalid input" }, { status: 400 });
  const result = await grantPlan(env.DB, { adminUserId: admin.user.id, targetUserId, ...parsed.data });
  if (!result.ok) return data({ userId: targetUserId, message: "No user has this id." }, { status: 404 });
  await forgetAccountKeys(env.DB, env.CACHE, targetUserId);
  return { userId: targetUserId, message: `Plan set to ${parsed.data.planId} for ${parsed.data.days} days.` };
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

export default function UserApiCalls({ loaderData, actionData }: Route.ComponentProps) {
  const { search, users } = loaderData;
  const busy = useNavigation().state === "submitting";
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
        <table className="w-full min-w-[72rem] text-left text-sm">
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
                <td className="py-2 pr-4">{user.lastCallAt ? dateFormat.format(user.lastCallAt) : "—"}</td>
                <td className="py-2 pr-4 text-xs">
                  {user.byApi.length === 0
                    ? "—"
                    : user.byApi
                        .map(
                          (usage) =>
                            `${usage.apiSlug} ${usage.calls}${usage.errors ? ` (${usage.errors} errors)` : ""}`,
                        )
                        .join(", ")}
                </td>
                <td className="py-2 pr-4">
                  <Form method="post" className="flex items-center gap-1" aria-label={`Grant a plan to ${user.email}`}>
                    <input type="hidden" name="userId" value={user.id} />
                    <select
                      name="planId"
                      aria-label="Plan"
                      defaultValue="standard"
                      className="rounded border border-slate-300 px-1 py-1 text-xs dark:border-slate-700 dark:bg-slate-900"
                    >
                      <option value="free">Free</option>
                      <option value="standard">Standard</option>
                      <option value="premium">Premium</option>
                    </select>
                    <input
                      name="days"
                      type="number"
                      min={1}
                      max={366}
                      defaultValue={30}
                      aria-label="Days"
                      className="w-16 rounded border border-slate-300 px-1 py-1 text-xs dark:border-slate-700 dark:bg-slate-900"
                    />
                    <button
                      type="submit"
                      disabled={busy}
                      className="rounded bg-brand-600 px-2 py-1 text-xs font-medium text-white"
                    >
                      Grant
                    </button>
                  </Form>
                  {actionData?.userId === user.id && (
                    <p role="status" className="mt-1 text-xs">
                      {actionData.message}
                    </p>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
