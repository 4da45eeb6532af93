/**
 * Sending mail. Production uses an HTTP mail API (Resend-compatible JSON) or Cloudflare's
 * send-email binding; development writes to an outbox table shown at /dev/mail. Which one is
 * chosen by MAIL_PROVIDER, never by the code that sends.
 */
import type { Config } from "~workers/config";
import { createId } from "~workers/platform/ids";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailProvider {
  send(message: MailMessage): Promise<void>;
}

export function createOutboxMail(db: D1Database, now: () => number = Date.now): MailProvider {
  return {
    async send(message) {
      await db
        .prepare(
          `INSERT INTO mail_outbox (id, to_address, subject, text_body, html_body, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .bind(createId("mail"), message.to, message.subject, message.text, message.html, now())
        .run();
    },
  };
}

export function createHttpMail(options: {
  url: string;
  apiKey: string;
  from: string;
  fetch?: typeof fetch;
}): MailProvider {
  const send = options.fetch ?? fetch;
  return {
    async send(message) {
      const response = await send(options.url, {
        method: "POST",
        headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          from: options.from,
          to: [message.to],
          subject: message.subject,
          text: message.text,
          html: message.html,
        }),
      });
      if (!response.ok) throw new Error(`Mail API answered ${response.status}`);
    },
  };
}

/** The shape of Cloudflare's `send_email` binding that this module uses. */
export interface SendEmailBinding {
  send(message: { from: string; to: string; raw: string | ReadableStream }): Promise<void>;
}

function encodeHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value)
    ? value
    : `=?UTF-8?B?${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}?=`;
}

/** A plain multipart/alternative MIME message, which is what the binding sends. */
export function buildMimeMessage(from: string, message: MailMessage): string {
  const boundary = `portico-${crypto.randomUUID()}`;
  const base64 = (text: string) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(text)))
      .match(/.{1,76}/g)
      ?.join("\r\n") ?? "";
  return [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Message-ID: <${crypto.randomUUID()}@portico.dev>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64(message.text),
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64(message.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

export function createBindingMail(binding: SendEmailBinding, from: string): MailProvider {
  const address = from.match(/<([^>]+)>/)?.[1] ?? from;
  return {
    async send(message) {
      await binding.send({ from: address, to: message.to, raw: buildMimeMessage(from, message) });
    },
  };
}

export function createMailProvider(config: Config, env: Env & { MAIL_BINDING?: SendEmailBinding }): MailProvider {
  switch (config.MAIL_PROVIDER) {
    case "outbox":
      return createOutboxMail(env.DB);
    case "http":
      return createHttpMail({ url: config.MAIL_API_URL, apiKey: config.MAIL_API_KEY, from: config.MAIL_FROM });
    case "binding":
      if (!env.MAIL_BINDING) throw new Error("MAIL_PROVIDER=binding needs a send_email binding named MAIL_BINDING");
      return createBindingMail(env.MAIL_BINDING, config.MAIL_FROM);
  }
}
