/**
 * schema.org data for search engines (docs/product.md#structured-data): the product as a WebAPI, the FAQ, the
 * breadcrumbs of the current page, the organisation and the site with its search action.
 */
import { FAQ } from "~/lib/faq";
import type { MenuItem } from "~/lib/page-meta";
import { SITE } from "~/lib/site";

function breadcrumbs(pathname: string, current: MenuItem | undefined) {
  const crumbs = [{ name: "Home", url: `${SITE.origin}/` }];
  if (pathname.startsWith("/docs")) crumbs.push({ name: "Docs", url: `${SITE.origin}/docs` });
  if (current && current.endpoint !== "/") crumbs.push({ name: current.name, url: SITE.origin + current.endpoint });
  return crumbs;
}

export function StructuredData({ pathname, current }: { pathname: string; current: MenuItem | undefined }) {
  const graph = {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        "@id": `${SITE.origin}/#organization`,
        name: SITE.name,
        url: SITE.origin,
        logo: `${SITE.origin}/logo.svg`,
        email: SITE.supportEmail,
        sameAs: [SITE.socialUrl],
      },
      {
        "@type": "WebSite",
        "@id": `${SITE.origin}/#website`,
        name: SITE.name,
        url: SITE.origin,
        publisher: { "@id": `${SITE.origin}/#organization` },
        potentialAction: {
          "@type": "SearchAction",
          target: { "@type": "EntryPoint", urlTemplate: `${SITE.origin}/docs?q={search_term_string}` },
          "query-input": "required name=search_term_string",
        },
      },
      {
        "@type": "WebAPI",
        name: current && current.endpoint !== "/" ? `${current.name} API` : `${SITE.name} APIs`,
        description: current?.description ?? SITE.tagline,
        documentation: SITE.origin + (current && current.endpoint !== "/" ? current.endpoint : "/docs"),
        provider: { "@id": `${SITE.origin}/#organization` },
      },
      {
        "@type": "FAQPage",
        mainEntity: FAQ.map((entry) => ({
          "@type": "Question",
          name: entry.question,
          acceptedAnswer: { "@type": "Answer", text: entry.answer },
        })),
      },
      {
        "@type": "BreadcrumbList",
        itemListElement: breadcrumbs(pathname, current).map((crumb, index) => ({
          "@type": "ListItem",
          position: index + 1,
          name: crumb.name,
          item: crumb.url,
        })),
      },
    ],
  };
  // `<` is escaped so no text in the data can close the script element.
  const json = JSON.stringify(graph).replace(/</g, "\\u003c");
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
