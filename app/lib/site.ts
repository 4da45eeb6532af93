/**
 * Public facts about the product that both the pages and the server print.
 * Nothing secret belongs here: this module ships to the browser.
 */
export const SITE = {
  name: "Portico",
  tagline: "Hosted APIs for developers, served from the edge",
  headline: "Access powerful free APIs for Video Downloading, HTML to PDF conversion, and URL Shortening.",
  supportEmail: "support@portico.dev",
  socialUrl: "https://www.linkedin.com/company/portico-apis",
  origin: "https://portico.dev",
} as const;

/** Where the API key goes in the docs' code samples; the docs page puts the reader's own key there. */
export const API_KEY_PLACEHOLDER = "YOUR_API_KEY";
