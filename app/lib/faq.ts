/** Questions answered on the home page and in its FAQPage structured data. */
export const FAQ = [
  {
    question: "How do I call an API?",
    answer:
      "Sign up, create a key on the API Key page, and send it in the x-api-key header to https://portico.dev/api/v1/<api>. Every docs page has a curl, JavaScript and Python sample.",
  },
  {
    question: "What does the Free plan include?",
    answer:
      "200 calls a month across every free and freemium API (up to 50 of them on freemium APIs), at 2 calls a second. No card is needed.",
  },
  {
    question: "How are limits shown?",
    answer:
      "Every answer carries RateLimit and X-RateLimit headers with what is left this second and this month; the dashboard shows the same figures.",
  },
  {
    question: "How do I pay?",
    answer:
      "Standard and Premium are monthly plans paid through PayPal worldwide or Cashfree in India. A plan is active the moment the payment is confirmed.",
  },
] as const;
