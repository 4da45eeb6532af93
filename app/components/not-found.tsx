/** The not-found page (docs/product.md#not-found). 'Go to Home' goes to / with a full reload. */
export function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-7xl font-bold text-brand-600">404</p>
      <h1 className="mt-6 text-3xl font-semibold">Looks like you're lost</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">The page you are looking for is not available!</p>
      <button
        type="button"
        onClick={() => window.location.assign("/")}
        className="mt-8 rounded-md bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700"
      >
        Go to Home
      </button>
    </section>
  );
}

/** What a page-level render error shows instead of a blank screen. */
export function RenderErrorFallback({ detail }: { detail?: string }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-semibold">Something went wrong</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">
        This page failed to display. Reloading usually helps; if it does not, please report it from the home page.
      </p>
      {detail && (
        <pre className="mt-6 max-w-full overflow-x-auto rounded-md bg-slate-100 p-4 text-left text-xs dark:bg-slate-900">
          {detail}
        </pre>
      )}
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-8 rounded-md bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700"
      >
        Reload the page
      </button>
    </section>
  );
}
