import { ProsePage } from "~/components/prose-page";
import { titled } from "~/lib/page-meta";
import { LAST_UPDATED, PrivacyText } from "./privacy-text";

export const meta = () => [
  { title: titled("Privacy Policy") },
  { name: "description", content: "What Portico keeps about you, why, for how long, and how to have it deleted." },
];

export default function PrivacyPolicy() {
  return (
    <ProsePage title="Privacy Policy" updated={LAST_UPDATED}>
      <PrivacyText />
    </ProsePage>
  );
}
