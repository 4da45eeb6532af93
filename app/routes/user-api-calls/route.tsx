/** Admin: users with their plan and this month's calls, searchable by email. */
import type { ReactNode } from "react";
import { data, Form, useActionData, useNavigation } from "react-router";
import { pageMeta } from "~/lib/page-meta";
import { requireAdmin, serverContext } from "~/lib/session.server";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { grantPlan, GrantPlanSchema, listUsersForAdmin } from "~workers/platform/admin";
import type { Route } from "./+types/route";

export const meta = () => pageMeta("Users and calls", "Portico's accounts with their plan and this month's calls.");

export async function loader({ request, context }: Route.LoaderArgs) {
  // Checked here as well as in the admin layout: a single-fetch request can run this loader alone.
  await requireAdmin(request, context);
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
  const result = await grantPlan(env.DB, gatewayNotices(env), {
    adminUserId: admin.user.id,
    targetUserId,
    ...parsed.data,
  });
  if (!result.ok) return data({ userId: targetUserId, message: "No user has this id." }, { status: 404 });
  return { userId: targetUserId, message: `Plan set to ${parsed.data.planId} for ${parsed.data.days} days.` };
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

type UserRow = Route.ComponentProps["loaderData"]["users"][number];

/**
 * The table's columns, each header with the cell that goes under it, so the two cannot drift
 * apart. Calls and errors are this UTC month's; "Last call" is the latest use of any of the
 * user's keys.
 */
const COLUMNS: { header: string; cell: (user: UserRow) => ReactNode }[] = [
  { header: "Email", cell: (user) => user.email },
  { header: "Name", cell: (user) => user.name },
  { header: "Plan", cell: (user) => <span className="capitalize">{user.planId}</span> },
  { header: "Plan ends", cell: (user) => (user.planExpiresAt ? dateFormat.format(user.planExpiresAt) : "—") },
  { header: "Active keys", cell: (user) => user.activeKeys },
  { header: "Calls this month", cell: (user) => user.callsThisMonth.toLocaleString("en-US") },
  {
    header: "Calls by API",
    cell: (user) =>
      user.byApi.length === 0 ? (
        "—"
      ) : (
        <ul className="text-xs">
          {user.byApi.map((usage) => (
            <li key={usage.apiSlug}>
              {usage.apiSlug}: {usage.calls.toLocaleString("en-US")}
              {usage.errors > 0 &&
                ` (${usage.errors.toLocaleString("en-US")} ${usage.errors === 1 ? "error" : "errors"})`}
            </li>
          ))}
        </ul>
      ),
  },
  { header: "Errors", cell: (user) => user.errorsThisMonth.toLocaleString("en-US") },
  { header: "Last call", cell: (user) => (user.lastCallAt ? `${dateTimeFormat.format(user.lastCallAt)} UTC` : "—") },
  { header: "Joined", cell: (user) => dateFormat.format(user.createdAt) },
  { header: "Grant a plan", cell: (user) => <GrantPlanForm userId={user.id} email={user.email} /> },
];

function GrantPlanForm({ userId, email }: { userId: string; email: string }) {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <Form method="post" className="flex items-center gap-1" aria-label={`Grant a plan to ${email}`}>
        <input type="hidden" name="userId" value={userId} />
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
        <button type="submit" disabled={busy} className="rounded bg-brand-600 px-2 py-1 text-xs font-medium text-white">
          Grant
        </button>
      </Form>
      {actionData?.userId === userId && (
        <p role="status" className="mt-1 text-xs">
          {actionData.message}
        </p>
      )}
    </>
  );
}

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
        <table aria-label="Users" className="w-full min-w-[80rem] text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-700">
              {COLUMNS.map((column) => (
                <th key={column.header} scope="col" className="py-2 pr-4 font-semibold">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {users.length === 0 && (
              <tr>
                <td colSpan={COLUMNS.length} className="py-6 text-center text-slate-500">
                  No user matches.
                </td>
              </tr>
            )}
            {users.map((user) => (
              <tr key={user.id} className="border-b border-slate-100 dark:border-slate-800">
                {COLUMNS.map((column) => (
                  <td key={column.header} className="py-2 pr-4 align-top">
                    {column.cell(user)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
