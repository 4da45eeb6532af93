import type { ReactNode } from "react";
import { SITE } from "~/lib/site";

export const LAST_UPDATED = "2026-11-22";

const H2 = "mt-8 text-xl font-semibold text-slate-900 dark:text-slate-100";
const P = "mt-3 leading-7 text-slate-700 dark:text-slate-300";
const UL = "mt-3 list-disc space-y-2 pl-6 leading-7 text-slate-700 dark:text-slate-300";
const LINK =
  "font-medium text-indigo-600 underline underline-offset-2 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300";
const TH =
  "border-b border-slate-200 px-3 py-2 text-left font-semibold text-slate-900 dark:border-slate-700 dark:text-slate-100";
const TD = "border-b border-slate-200 px-3 py-2 text-slate-700 dark:border-slate-800 dark:text-slate-300";

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={H2}>
        {title}
      </h2>
      {children}
    </section>
  );
}

function SupportLink() {
  return (
    <a className={LINK} href={`mailto:${SITE.supportEmail}`}>
      {SITE.supportEmail}
    </a>
  );
}

export function TermsText() {
  return (
    <div className="text-base">
      <p className={P}>
        These terms govern your use of {SITE.name}, including the website at{" "}
        <a className={LINK} href={SITE.origin}>
          {SITE.origin}
        </a>
        , the dashboard, the documentation and the hosted APIs (together, the &ldquo;Service&rdquo;). By creating an
        account, using an API key or buying a plan, you agree to these terms. If you use the Service on behalf of a
        company or other organisation, you confirm that you are allowed to accept these terms for it, and
        &ldquo;you&rdquo; then means that organisation as well as you.
      </p>

      <Section id="service" title="1. The Service">
        <p className={P}>
          {SITE.name} is a collection of hosted APIs for developers, served from Cloudflare&apos;s global network. They
          include, among others, QR code generation, avatars, URL shortening, image filters, image-to-text (OCR),
          HTML-to-PDF conversion, currency exchange rates, WHOIS look-ups, social media video download, email
          verification, text-to-speech, audio-to-text, resume parsing and background removal. You call them over HTTPS
          with an API key. We may add, change or retire individual APIs over time; section 7 explains how we handle
          changes.
        </p>
      </Section>

      <Section id="accounts" title="2. Accounts and API keys">
        <ul className={UL}>
          <li>
            You can sign up with an email address and password or with Google sign-in. Give us an email address you can
            read: we use it for sign-in, receipts and important notices about your account.
          </li>
          <li>You must be at least 16 years old to create an account.</li>
          <li>
            You are responsible for everything done with your account and your API keys. Keep your password and keys
            secret. Do not put API keys in public repositories, in client-side code that ships to browsers or apps, or
            anywhere else other people can read them; call the APIs from your own server instead.
          </li>
          <li>
            We store only a one-way hash of each API key and a short prefix that helps you recognise it. We therefore
            cannot show you a key again after it has been created. If you lose a key, or think someone else has it,
            revoke it in the dashboard and create a new one.
          </li>
          <li>
            We may suspend or revoke any API key that is used abusively, that appears to have leaked, or that puts the
            Service or other users at risk. Where practical we will tell you by email, but we may act first when we need
            to protect the Service.
          </li>
          <li>One person or organisation should not open several free accounts to get around the free quota.</li>
        </ul>
      </Section>

      <Section id="acceptable-use" title="3. Acceptable use">
        <p className={P}>You agree not to use the Service, or help anyone else use it, to:</p>
        <ul className={UL}>
          <li>
            break the law, or process, generate, store or share illegal content, including content that sexually
            exploits children, infringes someone else&apos;s rights, or is defamatory, harassing or fraudulent;
          </li>
          <li>
            download, copy or redistribute videos or other material through the video downloader (or any other API) when
            you do not own it or do not have the rights holder&apos;s permission or another legal basis to do so;
          </li>
          <li>
            break the terms of service of third-party websites and platforms whose content you ask our APIs to fetch or
            process. Those terms still apply to you when you use {SITE.name};
          </li>
          <li>
            send spam or phishing, disguise malicious links with the URL shortener, or use email verification to build
            or clean lists of people who have not agreed to hear from you;
          </li>
          <li>
            attack, overload, probe or disrupt the Service or other users, including by trying to bypass rate limits or
            quotas, rotating accounts or keys to avoid limits, or sending malware;
          </li>
          <li>
            gain access to accounts, keys or data that are not yours, or reverse engineer the Service except where the
            law expressly allows it;
          </li>
          <li>resell or wrap the Service as a competing API offering without our written permission.</li>
        </ul>
        <p className={P}>
          We may investigate suspected breaches, remove short links, block requests and suspend or close accounts that
          break these rules. Where the law requires it, we may report illegal activity to the authorities.
        </p>
      </Section>

      <Section id="plans" title="4. Plans, quotas and rate limits">
        <p className={P}>
          Every account has one plan at a time. Each plan includes a number of API requests per monthly period and a
          maximum request rate per second:
        </p>
        <div className="mt-4 overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr>
                <th scope="col" className={TH}>
                  Plan
                </th>
                <th scope="col" className={TH}>
                  Price per month
                </th>
                <th scope="col" className={TH}>
                  Requests per month
                </th>
                <th scope="col" className={TH}>
                  Rate limit
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row" className={TD + " font-medium"}>
                  Free
                </th>
                <td className={TD}>No charge</td>
                <td className={TD}>200</td>
                <td className={TD}>2 requests per second</td>
              </tr>
              <tr>
                <th scope="row" className={TD + " font-medium"}>
                  Standard
                </th>
                <td className={TD}>9 USD or 21 INR</td>
                <td className={TD}>20,000</td>
                <td className={TD}>5 requests per second</td>
              </tr>
              <tr>
                <th scope="row" className={TD + " font-medium"}>
                  Premium
                </th>
                <td className={TD}>17 USD or 46 INR</td>
                <td className={TD}>50,000</td>
                <td className={TD}>8 requests per second</td>
              </tr>
            </tbody>
          </table>
        </div>
        <ul className={UL}>
          <li>
            Quotas are counted per account across all of your API keys and all APIs, over monthly periods. Unused
            requests do not carry over to the next period.
          </li>
          <li>
            When you reach your monthly quota or exceed your rate limit, the API answers with HTTP status 429 (Too Many
            Requests) until the period resets or the rate drops. Upgrading your plan raises the limits.
          </li>
          <li>
            Some APIs limit the size of uploads, documents, audio or pages they accept. These limits are described in
            the documentation for each API.
          </li>
          <li>
            We may change the quotas and rate limits of the Free plan at any time. We will not reduce the limits of a
            paid plan during a period you have already paid for.
          </li>
        </ul>
      </Section>

      <Section id="payments" title="5. Payments and refunds">
        <ul className={UL}>
          <li>
            Payments are handled by our payment providers: PayPal for customers worldwide, charged in US dollars, and
            Cashfree for customers in India, charged in Indian rupees. We choose the currency shown to you from the
            country your connection appears to come from. Your payment is also subject to the provider&apos;s own terms.
          </li>
          <li>
            We never see or store your card number or other full payment details; they are entered on, and stay with,
            PayPal or Cashfree. We receive only the order details we need, such as the order id, amount, currency and
            status.
          </li>
          <li>
            A paid plan starts when your payment is confirmed and runs for one month from the date of payment. Plans do
            not renew automatically: to keep a paid plan, buy another month before it ends. When a paid plan ends, your
            account returns to the Free plan.
          </li>
          <li>
            Prices are shown before you pay. Depending on where you live, taxes or fees charged by your bank or the
            payment provider may apply.
          </li>
          <li>
            Refunds: if you are not happy with a paid plan, write to <SupportLink /> within 7 days of the payment. If we
            refund you, the paid plan ends when the refund is issued and your account returns to the Free plan. Nothing
            in this section limits any right to a refund you have under the consumer laws of your country.
          </li>
          <li>If a payment is reversed or charged back, we may downgrade the account to the Free plan.</li>
        </ul>
      </Section>

      <Section id="referrals" title="6. Referral programme">
        <p className={P}>
          You can invite other developers with your personal referral link. A new user who signs up through a referral
          link receives 200 bonus API calls and a 5% discount on a paid plan. Referral benefits have no cash value and
          cannot be exchanged or transferred. Referring yourself, creating fake accounts or promoting your link through
          spam is not allowed; we may withdraw referral benefits obtained that way. We may change or end the referral
          programme at any time, without affecting benefits already granted.
        </p>
      </Section>

      <Section id="availability" title="7. Availability and changes to the Service">
        <p className={P}>
          We work hard to keep {SITE.name} fast and available, but we provide it on a best-effort basis. The Free plan
          comes with no service level agreement (SLA) of any kind, and paid plans do not include a formal SLA unless we
          have agreed one with you in writing. The Service can be interrupted for maintenance, by failures at our
          hosting or other providers, or by events beyond our control.
        </p>
        <p className={P}>
          Several APIs depend on third parties, for example exchange-rate sources, WHOIS registries and the platforms
          hosting videos. If a third party changes or blocks access, the affected API may stop working temporarily or
          permanently. We may change, replace or retire individual APIs. If we retire an API that paid customers use, we
          will try to give reasonable notice in the documentation or by email.
        </p>
      </Section>

      <Section id="ip" title="8. Intellectual property">
        <ul className={UL}>
          <li>
            Your content stays yours. The inputs you send (such as images, documents, audio, text and URLs) and the
            outputs the APIs return to you belong to you, or to whoever owned them before. You give us only the
            permission we need to process them in order to provide the Service.
          </li>
          <li>You are responsible for having the rights to the inputs you send and for how you use the outputs.</li>
          <li>
            The Service itself, including our software, documentation, website design and the {SITE.name} name and logo,
            belongs to us or our licensors. These terms give you a limited, non-exclusive, non-transferable right to use
            the Service as described here, and no other rights.
          </li>
          <li>If you send us feedback or suggestions, we may use them freely without owing you anything.</li>
        </ul>
      </Section>

      <Section id="disclaimers" title="9. Disclaimers">
        <p className={P}>
          The Service is provided &ldquo;as is&rdquo; and &ldquo;as available&rdquo;. To the extent the law allows, we
          make no promises or warranties, express or implied, about fitness for a particular purpose, merchantability,
          accuracy or uninterrupted operation. In particular, results such as OCR text, transcriptions, parsed resumes,
          email verification results, currency rates and WHOIS data are produced automatically and may be incomplete or
          wrong. Check them before relying on them, and do not use currency rates from the Service as the sole basis for
          financial transactions.
        </p>
      </Section>

      <Section id="liability" title="10. Limitation of liability">
        <p className={P}>To the extent the law allows:</p>
        <ul className={UL}>
          <li>
            we are not liable for indirect or consequential losses, or for loss of profits, revenue, data, goodwill or
            business opportunities, arising from your use of or inability to use the Service;
          </li>
          <li>
            our total liability to you for all claims relating to the Service is limited to the amount you paid us in
            the 12 months before the event that gave rise to the claim, or 10 USD if that amount is lower (for example,
            if you use only the Free plan).
          </li>
        </ul>
        <p className={P}>
          Nothing in these terms limits liability that cannot be limited by law, such as liability for fraud, or for
          death or personal injury caused by negligence.
        </p>
        <p className={P}>
          You agree to compensate us for reasonable losses and costs resulting from claims by third parties caused by
          your breach of these terms or by content you send through the Service.
        </p>
      </Section>

      <Section id="termination" title="11. Termination">
        <p className={P}>
          You can stop using the Service at any time and delete your account from the Settings page. We may suspend or
          close your account, or revoke your keys, if you seriously or repeatedly break these terms, if we are required
          to by law, or if your use puts the Service or others at risk. If we close a paid account for reasons other
          than your breach of these terms, we will refund the unused part of the current paid period. Sections that by
          their nature should survive termination, such as intellectual property, disclaimers, limitation of liability
          and governing law, continue to apply.
        </p>
      </Section>

      <Section id="law" title="12. Governing law and disputes">
        <p className={P}>
          These terms are governed by the laws of India. Before starting any formal proceedings, please write to us at{" "}
          <SupportLink /> so we can try to resolve the issue informally. Disputes that cannot be resolved that way will
          be handled by the competent courts in India. If you are a consumer, you also keep any mandatory protections
          and any right to bring proceedings that the laws of your country of residence give you.
        </p>
      </Section>

      <Section id="changes" title="13. Changes to these terms">
        <p className={P}>
          We may update these terms from time to time. The &ldquo;last updated&rdquo; date shown with these terms tells
          you when they last changed. If a change materially affects your rights, we will tell you by email or with a
          notice in the dashboard at least 14 days before it takes effect, unless the change is required by law sooner.
          If you keep using the Service after a change takes effect, the updated terms apply; if you do not agree with
          them, you can stop using the Service and delete your account.
        </p>
      </Section>

      <Section id="contact" title="14. Contact">
        <p className={P}>
          Questions about these terms, refund requests and reports of abuse can be sent to <SupportLink />.
        </p>
      </Section>
    </div>
  );
}

export default TermsText;
