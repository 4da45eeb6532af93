import { Link, useRouteLoaderData } from "react-router";
import { FAQ } from "~/lib/faq";
import { SITE } from "~/lib/site";
import { useViewer, type loader as rootLoader } from "~/root";
import { Newsletter } from "./newsletter";
import { ReferEarn } from "./refer-earn";
import { ReportBugForm } from "./report-bug-form";
import { ServicesCarousel } from "./services-carousel";

function Hero() {
  // The server's session decides, so the right button is in the first HTML already.
  const signedIn = useViewer() !== null;
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white dark:from-slate-900 dark:to-slate-950">
      {/* Even side gutters keep the text centred while the right one stays clear of the floating button. */}
      <div className="mx-auto max-w-[calc(64rem+2*var(--fab-gutter))] px-(--fab-gutter) py-20 text-center sm:py-28">
        <p className="text-sm font-semibold uppercase tracking-widest text-brand-600">{SITE.name}</p>
        <h1 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-5xl">{SITE.headline}</h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
          Twenty-two hosted APIs behind one key, with exact limits in every response and docs that get you to a first
          call in a minute.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Link
            to={signedIn ? "/user/dashboard" : "/user/authenticate"}
            className="rounded-md bg-brand-600 px-6 py-3 font-semibold text-white shadow hover:bg-brand-700"
          >
            {signedIn ? "Goto Dashboard" : "Sign Up / Login"}
          </Link>
          <Link
            to="/docs"
            className="rounded-md border border-slate-300 px-6 py-3 font-semibold hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Browse the docs
          </Link>
        </div>
      </div>
    </section>
  );
}

export default function Home() {
  const menu = useRouteLoaderData<typeof rootLoader>("root")?.menu ?? [];
  const services = menu.filter((item) => item.name !== "Home");
  return (
    <>
      <Hero />
      <ServicesCarousel services={services} />
      <div className="mx-auto grid max-w-7xl gap-8 pl-4 pr-(--fab-gutter) lg:grid-cols-2">
        <ReportBugForm />
        <div className="flex flex-col gap-8">
          <Newsletter />
          <section
            aria-labelledby="faq-heading"
            className="rounded-2xl border border-slate-200 p-6 dark:border-slate-800"
          >
            <h2 id="faq-heading" className="text-2xl font-bold tracking-tight">
              Questions
            </h2>
            <dl className="mt-4 space-y-4">
              {FAQ.map((entry) => (
                <div key={entry.question}>
                  <dt className="font-semibold">{entry.question}</dt>
                  <dd className="mt-1 text-sm text-slate-600 dark:text-slate-400">{entry.answer}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      </div>
      <ReferEarn />
    </>
  );
}
