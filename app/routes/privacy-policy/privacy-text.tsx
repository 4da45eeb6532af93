import type { ReactNode } from "react";
import { SITE } from "~/lib/site";

export const LAST_UPDATED = "2026-11-22";

const H2 = "mt-8 text-xl font-semibold text-slate-900 dark:text-slate-100";
const H3 = "mt-6 text-lg font-medium text-slate-900 dark:text-slate-100";
const P = "mt-3 leading-7 text-slate-700 dark:text-slate-300";
const UL = "mt-3 list-disc space-y-2 pl-6 leading-7 text-slate-700 dark:text-slate-300";
const LINK =
  "font-medium text-indigo-600 underline underline-offset-2 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300";
const STRONG = "font-semibold text-slate-900 dark:text-slate-100";

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

export function PrivacyText() {
  return (
    <div className="text-base">
      <p className={P}>
        This policy explains what personal data {SITE.name} collects when you use our website at{" "}
        <a className={LINK} href={SITE.origin}>
          {SITE.origin}
        </a>
        , the dashboard and our hosted APIs, why we collect it, who else handles it and what choices you have. We have
        tried to keep it short and specific. {SITE.name} is the controller of the personal data described here. If you
        have any question, write to <SupportLink />.
      </p>

      <Section id="what-we-keep" title="1. What we keep">
        <h3 className={H3}>Your account</h3>
        <ul className={UL}>
          <li>Your email address, your name and the URL of your avatar picture.</li>
          <li>
            If you sign up with a password: a hash of your password made with PBKDF2 and a random salt. We never store
            the password itself and cannot read it.
          </li>
          <li>
            If you use Google sign-in: your Google account identifier, together with the email address, name and picture
            URL that Google shares with us when you agree. We do not receive your Google password or access to your
            Google data beyond that basic profile.
          </li>
        </ul>

        <h3 className={H3}>API keys</h3>
        <p className={P}>
          For each API key we store a SHA-256 hash of the key, a short prefix of it so you can tell your keys apart in
          the dashboard, the name you gave it, when it was created and when it was last used. The full key is shown to
          you once, when it is created, and is not stored by us.
        </p>

        <h3 className={H3}>Usage records</h3>
        <p className={P}>
          To enforce quotas, show you statistics and keep the Service healthy, we keep daily usage records for each API
          you call: the number of requests, the number of errors and response times (latency). These are counts and
          timings, not the content of your requests.
        </p>

        <h3 className={H3}>Payments</h3>
        <p className={P}>
          When you buy a plan we keep the order id, the plan, the amount and currency, the payment status and the
          relevant dates. Your card number and other payment details are entered on PayPal&apos;s or Cashfree&apos;s own
          pages and stay with them; we never see or store them.
        </p>

        <h3 className={H3}>Messages and newsletter</h3>
        <p className={P}>
          If you use the contact form we keep your message, name and email address so we can answer. If you subscribe to
          the newsletter we keep your email address and the date you subscribed.
        </p>

        <h3 className={H3}>Your IP address</h3>
        <p className={P}>
          We use the IP address of each request for two things only: to apply rate limits, and to detect your country so
          we can show prices in Indian rupees (with Cashfree) or US dollars (with PayPal). The IP address is used
          transiently for those purposes and is not kept in your account, in usage records or in any log of our own
          beyond that.
        </p>
      </Section>

      <Section id="what-we-dont" title="2. What we don't do">
        <ul className={UL}>
          <li>
            <span className={STRONG}>We don&apos;t sell your data</span>, rent it out or share it with advertisers.
          </li>
          <li>
            <span className={STRONG}>We don&apos;t keep your API inputs.</span> Images, documents, HTML, audio, text and
            other inputs you send to the APIs (for example for OCR, HTML-to-PDF, background removal, text-to-speech,
            audio-to-text or resume parsing) are processed in memory to produce the response and are not stored
            afterwards. The same goes for the outputs we return.
          </li>
          <li>
            The exception is the URL shortener: a short link and the address it points to must be stored for the link to
            work. They are kept until you delete the link or it expires.
          </li>
          <li>We don&apos;t use your data to train machine-learning models.</li>
          <li>We don&apos;t use advertising or cross-site tracking cookies, pixels or analytics profiles.</li>
        </ul>
      </Section>

      <Section id="why" title="3. Why we use your data">
        <ul className={UL}>
          <li>
            To provide the Service you signed up for: sign-in, API keys, quotas, rate limits, usage statistics and your
            plan. This is necessary to perform our contract with you.
          </li>
          <li>
            To take payments and keep accounting records, which is necessary for the contract and required by tax and
            accounting law.
          </li>
          <li>
            To keep the Service secure and prevent abuse, such as detecting leaked keys or attempts to get around
            limits. This is our legitimate interest and yours.
          </li>
          <li>
            To send you emails about your account, such as sign-in and password messages, receipts and important changes
            to the Service or our terms. The newsletter is sent only if you subscribed, and you can unsubscribe at any
            time.
          </li>
          <li>To answer messages you send us.</li>
        </ul>
      </Section>

      <Section id="cookies" title="4. Cookies and local storage">
        <p className={P}>We use only what the site needs to work:</p>
        <ul className={UL}>
          <li>
            <span className={STRONG}>Session cookie.</span> A signed cookie that keeps you signed in. It cannot be
            changed without us noticing, it is not readable by scripts on the page, and it is removed when you sign out
            or when it expires.
          </li>
          <li>
            <span className={STRONG}>Google sign-in cookie.</span> A short-lived cookie set while you sign in with
            Google, used to check that the answer from Google belongs to the sign-in you started. It expires within
            minutes.
          </li>
          <li>
            <span className={STRONG}>Local storage.</span> Your browser&apos;s local storage remembers your colour mode
            (light or dark) and, while you are signed in, the display fields shown in the page header, such as your
            name, email address and avatar URL. This data stays in your browser; you can clear it at any time in your
            browser settings.
          </li>
        </ul>
        <p className={P}>
          We do not use advertising or tracking cookies, so there is no cookie banner to accept. If your avatar is your
          Google profile picture, your browser loads it from Google, which may see that request.
        </p>
      </Section>

      <Section id="processors" title="5. Who else handles your data">
        <p className={P}>
          We use a small number of service providers (processors) who handle data on our behalf and only for the
          purposes below:
        </p>
        <ul className={UL}>
          <li>
            <span className={STRONG}>Cloudflare</span> hosts the website and APIs, runs our code and stores our
            databases. Requests are served from Cloudflare&apos;s data centre closest to you, so your data may be
            processed in countries other than your own.
          </li>
          <li>
            <span className={STRONG}>PayPal</span> processes payments in US dollars for customers outside India.
          </li>
          <li>
            <span className={STRONG}>Cashfree</span> processes payments in Indian rupees for customers in India.
          </li>
          <li>
            <span className={STRONG}>Google</span> provides Google sign-in, if you choose to use it.
          </li>
          <li>
            <span className={STRONG}>Our email delivery provider</span> sends account emails, receipts and the
            newsletter on our behalf.
          </li>
        </ul>
        <p className={P}>
          PayPal, Cashfree and Google also process your data under their own privacy policies when you use their pages.
          Apart from these providers, we disclose personal data only when the law requires it, to protect the rights and
          safety of our users or the Service, or as part of a sale or merger of the business, in which case this policy
          would continue to apply to your data.
        </p>
      </Section>

      <Section id="retention" title="6. How long we keep data">
        <ul className={UL}>
          <li>Account data, API key hashes and usage records: for as long as your account exists.</li>
          <li>Short links: until you delete them or they expire.</li>
          <li>
            Payment records: for as long as tax and accounting law requires, even after your account is deleted (see
            below).
          </li>
          <li>Contact-form messages: for as long as needed to answer you and follow up.</li>
          <li>Newsletter addresses: until you unsubscribe.</li>
          <li>IP addresses: not kept beyond the request they belong to (see section 1).</li>
        </ul>
      </Section>

      <Section id="deletion" title="7. Deleting your account">
        <p className={P}>
          You can delete your account at any time from the Settings page. This removes your profile, your password hash
          or Google account link, your API keys (which stop working immediately) and your usage records. Payment records
          are kept because accounting law requires it, but they are detached from your personal data: we keep the order
          id, amount, currency, status and dates, not your name or email address. If you want your short links removed
          as well, delete them before deleting your account, or write to us.
        </p>
      </Section>

      <Section id="security" title="8. Security">
        <ul className={UL}>
          <li>All traffic to the website and APIs is encrypted with TLS (HTTPS).</li>
          <li>Passwords are stored only as salted PBKDF2 hashes, and API keys only as SHA-256 hashes.</li>
          <li>Sessions are held in signed cookies that cannot be forged or altered without detection.</li>
          <li>Access to production systems and data is limited to the people who need it to run the Service.</li>
        </ul>
        <p className={P}>
          No system is perfectly secure. If we learn of a breach that affects your personal data, we will tell you and
          the relevant authorities as the law requires. If you find a security problem, please report it to{" "}
          <SupportLink />.
        </p>
      </Section>

      <Section id="rights" title="9. Your rights">
        <p className={P}>
          Depending on where you live, you have some or all of the following rights over your personal data:
        </p>
        <ul className={UL}>
          <li>
            <span className={STRONG}>Access:</span> ask for a copy of the personal data we hold about you.
          </li>
          <li>
            <span className={STRONG}>Correction:</span> fix data that is wrong. You can change most account details
            yourself in Settings.
          </li>
          <li>
            <span className={STRONG}>Deletion:</span> delete your account from Settings, or ask us to erase specific
            data.
          </li>
          <li>
            <span className={STRONG}>Portability:</span> receive your data in a common, machine-readable format.
          </li>
          <li>
            <span className={STRONG}>Objection and withdrawal of consent:</span> for example, unsubscribe from the
            newsletter at any time.
          </li>
        </ul>
        <p className={P}>
          To use any of these rights, write to <SupportLink /> from the email address of your account. We will answer
          within 30 days and may ask you to confirm your identity first. You also have the right to complain to the data
          protection authority in your country.
        </p>
      </Section>

      <Section id="children" title="10. Children">
        <p className={P}>
          {SITE.name} is a service for developers and is not intended for anyone under 16. We do not knowingly collect
          personal data from children under 16. If you believe a child has created an account, contact us and we will
          delete it.
        </p>
      </Section>

      <Section id="changes" title="11. Changes to this policy">
        <p className={P}>
          We may update this policy when the Service or the law changes. The &ldquo;last updated&rdquo; date shown with
          this policy tells you when it last changed. If we make a significant change, such as collecting a new kind of
          personal data or using it for a new purpose, we will tell you by email or with a notice in the dashboard
          before the change takes effect.
        </p>
      </Section>

      <Section id="contact" title="12. Contact">
        <p className={P}>
          For any question or request about your personal data, write to <SupportLink />.
        </p>
      </Section>
    </div>
  );
}

export default PrivacyText;
