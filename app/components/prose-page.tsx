import type { ReactNode } from "react";

/** The frame of a long text page: a title, its date, then the text. */
export function ProsePage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
        Last updated{" "}
        <time dateTime={updated}>
          {new Date(`${updated}T00:00:00Z`).toLocaleDateString("en-GB", {
            day: "numeric",
            month: "long",
            year: "numeric",
            timeZone: "UTC",
          })}
        </time>
      </p>
      {children}
    </article>
  );
}
