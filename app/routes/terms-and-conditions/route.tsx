import { ProsePage } from "~/components/prose-page";
import { titled } from "~/lib/page-meta";
import { LAST_UPDATED, TermsText } from "./terms-text";

export const meta = () => [
  { title: titled("Terms and Conditions") },
  { name: "description", content: "The terms for using Portico's hosted APIs, plans and payments." },
];

export default function TermsAndConditions() {
  return (
    <ProsePage title="Terms and Conditions" updated={LAST_UPDATED}>
      <TermsText />
    </ProsePage>
  );
}
