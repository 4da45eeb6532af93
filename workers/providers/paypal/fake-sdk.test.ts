/**
 * The fake JS SDK and the popup's result page, run against a small stand-in DOM: the tests load
 * the script the fake serves, click its button, act as the buyer on the fake's real popup pages
 * and run the script those pages carry, so the whole message exchange is exercised.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { encodeBase64 } from "~workers/providers/signatures/base64";
import { createPayPalClient } from "./client";
import { createFakePayPal, createFakePayPalFetch } from "./fake";
import type { PayPalClient, PayPalResult } from "./types";

const ORIGIN = "http://localhost:5173";
const BASE_URL = `${ORIGIN}/dev/paypal`;

function setup(baseUrl = BASE_URL) {
  const fake = createFakePayPal({ baseUrl, kv: env.CACHE });
  const paypalFetch = createFakePayPalFetch(fake, baseUrl);
  const client = createPayPalClient({
    baseUrl,
    clientId: `client_${crypto.randomUUID()}`,
    clientSecret: "test-secret",
    fetch: paypalFetch,
  });
  return { paypalFetch, client };
}

function expectOk<T>(result: PayPalResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}

async function createOrderId(client: PayPalClient): Promise<string> {
  const paymentId = `pay_${crypto.randomUUID().replaceAll("-", "")}`;
  return expectOk(await client.createOrder({ paymentId, amount: { currency: "USD", value: "9.00" }, description: "x" }))
    .id;
}

async function loadSdkScript(paypalFetch: typeof fetch, baseUrl = BASE_URL): Promise<string> {
  const response = await paypalFetch(`${baseUrl}/sdk/js?client-id=test-client&currency=USD`);
  expect(response.status).toBe(200);
  return response.text();
}

/** Runs a script as a browser would, with `window` and `document` being the stand-ins. */
function runScript(script: string, window: object, document: object): void {
  new Function("window", "document", script)(window, document);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  // Counted rather than timed: workerd's clock only moves on I/O.
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

class StubElement {
  readonly children: StubElement[] = [];
  readonly style: Record<string, string> = {};
  readonly attributes = new Map<string, string>();
  private readonly clickListeners: Array<() => void> = [];
  parent: StubElement | null = null;
  textContent = "";
  type = "";
  className = "";
  title = "";
  disabled = false;

  constructor(readonly tagName: string) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  addEventListener(type: string, listener: () => void) {
    if (type === "click") this.clickListeners.push(listener);
  }
  appendChild(child: StubElement) {
    child.parent = this;
    this.children.push(child);
    return child;
  }
  remove() {
    this.parent?.children.splice(this.parent.children.indexOf(this), 1);
    this.parent = null;
  }
  click() {
    if (!this.disabled) for (const listener of this.clickListeners) listener();
  }
}

interface StubPopup {
  url: string;
  name: string;
  features: string;
  closed: boolean;
}

interface SdkButtons {
  isEligible(): boolean;
  render(container: unknown): Promise<void>;
  close(): Promise<void>;
}

interface Sdk {
  version: string;
  Buttons(options: Record<string, unknown>): SdkButtons;
  HostedButtons(options: { hostedButtonId: string }): { render(container: unknown): Promise<void> };
}

/** A page on ORIGIN with one container, `#paypal-button`, whose `window.open` records popups. */
function createBrowser(options: { namespace?: string } = {}) {
  const container = new StubElement("div");
  const popups: StubPopup[] = [];
  const messageListeners = new Set<(event: { data: unknown; origin: string; source: unknown }) => void>();
  const state = { blockPopups: false };
  const window: Record<string, unknown> = {
    location: { origin: ORIGIN },
    open: (url: string, name: string, features: string) => {
      if (state.blockPopups) return null;
      const popup = { url, name, features, closed: false };
      popups.push(popup);
      return popup;
    },
    addEventListener: (type: string, listener: (event: { data: unknown; origin: string; source: unknown }) => void) => {
      if (type === "message") messageListeners.add(listener);
    },
    removeEventListener: (
      _type: string,
      listener: (event: { data: unknown; origin: string; source: unknown }) => void,
    ) => messageListeners.delete(listener),
  };
  const document = {
    currentScript: options.namespace
      ? { getAttribute: (name: string) => (name === "data-namespace" ? options.namespace : null) }
      : null,
    createElement: (tag: string) => new StubElement(tag),
    querySelector: (selector: string) => (selector === "#paypal-button" ? container : null),
  };
  return {
    window,
    container,
    popups,
    state,
    load(script: string): Sdk {
      runScript(script, window, document);
      return window[options.namespace ?? "paypal"] as Sdk;
    },
    /** A message as the browser delivers it to this page. */
    post(data: unknown, from: unknown, origin = ORIGIN) {
      for (const listener of [...messageListeners]) listener({ data, origin, source: from });
    },
  };
}
type Browser = ReturnType<typeof createBrowser>;

/** Acts as the buyer in `popup`: submits the fake's popup form, then runs the page it answers. */
async function decideInPopup(
  paypalFetch: typeof fetch,
  browser: Browser,
  popup: StubPopup,
  choice: "pay" | "decline" | "cancel",
) {
  const url = new URL(popup.url, ORIGIN);
  const page = await paypalFetch(url, { method: "POST", body: new URLSearchParams({ choice }), redirect: "manual" });
  expect(page.status).toBe(200);
  const html = await page.text();
  const result = /<p id="fake-paypal-result" data-order-id="([^"]*)" data-outcome="([^"]*)">/.exec(html);
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!result || script === undefined) throw new Error("the popup's result page lacks its result or script");
  const targets: string[] = [];
  const popupWindow = Object.assign(popup, {
    location: { origin: ORIGIN },
    opener: {
      postMessage: (message: unknown, targetOrigin: string) => {
        targets.push(targetOrigin);
        browser.post(message, popup);
      },
    },
    close: () => {
      popup.closed = true;
    },
  });
  const popupDocument = {
    getElementById: (id: string) =>
      id === "fake-paypal-result" ? { dataset: { orderId: result[1], outcome: result[2] } } : null,
  };
  runScript(script, popupWindow, popupDocument);
  expect(targets).toEqual([ORIGIN]);
  expect(popup.closed).toBe(true);
}

function cspDirectives(response: Response): Map<string, string> {
  const csp = response.headers.get("content-security-policy") ?? "";
  return new Map(
    csp
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = "", ...values] = part.split(/\s+/);
        return [name, values.join(" ")] as const;
      }),
  );
}

describe("fake PayPal JS SDK script", () => {
  it("is served as uncached JavaScript that defines window.paypal", async () => {
    const { paypalFetch } = setup();
    const response = await paypalFetch(`${BASE_URL}/sdk/js?client-id=test-client&currency=USD`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const browser = createBrowser();
    const paypal = browser.load(await response.text());
    expect(paypal.version).toBe("fake");
    expect(typeof paypal.Buttons).toBe("function");
    expect(typeof paypal.HostedButtons).toBe("function");
  });

  it("honours loadScript's data-namespace", async () => {
    const { paypalFetch } = setup();
    const browser = createBrowser({ namespace: "paypalCheckout" });
    expect(browser.load(await loadSdkScript(paypalFetch)).version).toBe("fake");
    expect(browser.window.paypal).toBeUndefined();
  });

  it("draws a PayPal button, and rejects a container that does not exist", async () => {
    const { paypalFetch } = setup();
    const browser = createBrowser();
    const buttons = browser.load(await loadSdkScript(paypalFetch)).Buttons({ createOrder: async () => "X" });
    expect(buttons.isEligible()).toBe(true);
    await buttons.render("#paypal-button");
    const [button] = browser.container.children;
    expect(button?.tagName).toBe("button");
    expect(button?.getAttribute("aria-label")).toBe("PayPal");
    expect(button?.textContent).toBe("PayPal");
    expect(button?.style.background).toBe("#ffc439");
    await buttons.close();
    expect(browser.container.children).toEqual([]);
    await expect(buttons.render("#missing")).rejects.toThrow(/container/);
  });

  it("approves in the popup, ignoring messages from other origins or windows, then calls onApprove", async () => {
    const { paypalFetch, client } = setup();
    const orderId = await createOrderId(client);
    const browser = createBrowser();
    const onApprove = vi.fn();
    const onCancel = vi.fn();
    const createOrder = vi.fn(async () => orderId);
    await browser
      .load(await loadSdkScript(paypalFetch))
      .Buttons({ createOrder, onApprove, onCancel })
      .render("#paypal-button");
    browser.container.children[0]?.click();
    await until(() => browser.popups.length === 1, "the popup");
    const popup = browser.popups[0];
    if (!popup) throw new Error("no popup");
    expect(createOrder).toHaveBeenCalledTimes(1);
    expect(popup).toEqual({
      url: `/dev/paypal/checkoutnow?token=${orderId}&popup=1`,
      name: "fake-paypal",
      features: "width=480,height=640",
      closed: false,
    });

    const approved = { source: "fake-paypal", orderID: orderId, outcome: "approved" };
    browser.post(approved, popup, "https://evil.example");
    browser.post(approved, { closed: false });
    browser.post({ ...approved, orderID: "FAKEOTHERORDER" }, popup);
    browser.post({ ...approved, source: "someone-else" }, popup);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onApprove).not.toHaveBeenCalled();

    await decideInPopup(paypalFetch, browser, popup, "pay");
    await until(() => onApprove.mock.calls.length === 1, "onApprove");
    expect(onApprove).toHaveBeenCalledWith(
      expect.objectContaining({ orderID: orderId, payerID: "FAKEPAYER" }),
      expect.objectContaining({ restart: expect.any(Function) }),
    );
    expect(onCancel).not.toHaveBeenCalled();
    expect(expectOk(await client.captureOrder({ orderId, requestId: `cap_${crypto.randomUUID()}` })).status).toBe(
      "COMPLETED",
    );
  });

  it("recovers from INSTRUMENT_DECLINED with actions.restart(), calling onApprove again", async () => {
    const { paypalFetch, client } = setup();
    const orderId = await createOrderId(client);
    const browser = createBrowser();
    const captures: string[] = [];
    const onApprove = vi.fn(async ({ orderID }: { orderID: string }, actions: { restart(): Promise<void> }) => {
      const captured = await client.captureOrder({ orderId: orderID, requestId: `cap_${crypto.randomUUID()}` });
      captures.push(captured.ok ? captured.value.status : captured.code);
      if (!captured.ok && captured.code === "instrument-declined") return actions.restart();
    });
    const onError = vi.fn();
    await browser
      .load(await loadSdkScript(paypalFetch))
      .Buttons({ createOrder: async () => orderId, onApprove, onError })
      .render("#paypal-button");
    browser.container.children[0]?.click();

    await until(() => browser.popups.length === 1, "the first popup");
    await decideInPopup(paypalFetch, browser, browser.popups[0] as StubPopup, "decline");
    await until(() => browser.popups.length === 2, "the popup opened again by restart()");
    expect(browser.popups[1]?.url).toBe(`/dev/paypal/checkoutnow?token=${orderId}&popup=1`);
    await decideInPopup(paypalFetch, browser, browser.popups[1] as StubPopup, "pay");
    await until(() => captures.length === 2, "the second capture");
    expect(captures).toEqual(["instrument-declined", "COMPLETED"]);
    expect(onApprove).toHaveBeenCalledTimes(2);
    expect(onError).not.toHaveBeenCalled();
  });

  it("calls onCancel for Cancel and return, and when the buyer closes the popup", async () => {
    const { paypalFetch, client } = setup();
    const orderId = await createOrderId(client);
    const browser = createBrowser();
    const onApprove = vi.fn();
    const onCancel = vi.fn();
    await browser
      .load(await loadSdkScript(paypalFetch))
      .Buttons({ createOrder: async () => orderId, onApprove, onCancel })
      .render("#paypal-button");
    const button = browser.container.children[0];

    button?.click();
    await until(() => browser.popups.length === 1, "the popup");
    await decideInPopup(paypalFetch, browser, browser.popups[0] as StubPopup, "cancel");
    await until(() => onCancel.mock.calls.length === 1, "onCancel after Cancel and return");
    expect(onCancel).toHaveBeenCalledWith({ orderID: orderId });
    expect(expectOk(await client.getOrder(orderId)).status).toBe("CREATED");

    // The button works again: this time the buyer just closes the window.
    await until(() => button?.disabled === false, "the button to be enabled again");
    button?.click();
    await until(() => browser.popups.length === 2, "the second popup");
    (browser.popups[1] as StubPopup).closed = true;
    await until(() => onCancel.mock.calls.length === 2, "onCancel after closing the popup");
    expect(onApprove).not.toHaveBeenCalled();
  });

  it("calls onError when createOrder fails, without opening a popup", async () => {
    const { paypalFetch } = setup();
    const browser = createBrowser();
    const failure = new Error("our server is down");
    const onError = vi.fn();
    await browser
      .load(await loadSdkScript(paypalFetch))
      .Buttons({ createOrder: () => Promise.reject(failure), onError })
      .render("#paypal-button");
    browser.container.children[0]?.click();
    await until(() => onError.mock.calls.length === 1, "onError");
    expect(onError).toHaveBeenCalledWith(failure);
    expect(browser.popups).toEqual([]);
  });

  it("asks for a click when the browser blocks the popup", async () => {
    const { paypalFetch } = setup();
    const browser = createBrowser();
    browser.state.blockPopups = true;
    await browser
      .load(await loadSdkScript(paypalFetch))
      .Buttons({ createOrder: async () => "FAKEBLOCKED1" })
      .render("#paypal-button");
    browser.container.children[0]?.click();
    await until(() => browser.container.children.length === 2, "the Continue button");
    const proceed = browser.container.children[1];
    expect(proceed?.textContent).toBe("Continue with PayPal");
    browser.state.blockPopups = false;
    proceed?.click();
    expect(browser.popups.map((popup) => popup.url)).toEqual(["/dev/paypal/checkoutnow?token=FAKEBLOCKED1&popup=1"]);
    expect(browser.container.children).toHaveLength(1);
    (browser.popups[0] as StubPopup).closed = true; // lets the SDK's wait end
  });

  it("opens the popup under the path the fake is served at", async () => {
    const baseUrl = `${ORIGIN}/elsewhere/fake-paypal`;
    const { paypalFetch } = setup(baseUrl);
    const browser = createBrowser();
    await browser
      .load(await loadSdkScript(paypalFetch, baseUrl))
      .Buttons({ createOrder: async () => "FAKEPATH1" })
      .render("#paypal-button");
    browser.container.children[0]?.click();
    await until(() => browser.popups.length === 1, "the popup");
    expect(browser.popups[0]?.url).toBe("/elsewhere/fake-paypal/checkoutnow?token=FAKEPATH1&popup=1");
    (browser.popups[0] as StubPopup).closed = true; // lets the SDK's wait end
  });

  it("draws a hosted button carrying its id, which opens a page naming it", async () => {
    const { paypalFetch } = setup();
    const browser = createBrowser();
    await browser
      .load(await loadSdkScript(paypalFetch))
      .HostedButtons({ hostedButtonId: "EASYPAY123" })
      .render("#paypal-button");
    const button = browser.container.children[0];
    expect(button?.textContent).toBe("Pay with PayPal");
    expect(button?.getAttribute("data-hosted-button-id")).toBe("EASYPAY123");
    button?.click();
    expect(browser.popups[0]?.url).toBe("/dev/paypal/checkoutnow?hosted_button_id=EASYPAY123&popup=1");
    const page = await paypalFetch(new URL(browser.popups[0]?.url ?? "", ORIGIN));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Hosted button EASYPAY123");
    expect(html).not.toContain("<script");
  });
});

describe("fake PayPal popup pages", () => {
  it("shows Pay now, Decline card and Cancel and return in the popup, with no script", async () => {
    const { paypalFetch, client } = setup();
    const orderId = await createOrderId(client);
    const response = await paypalFetch(`${BASE_URL}/checkoutnow?token=${orderId}&popup=1`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(">Pay now</button>");
    expect(html).toContain(">Decline card</button>");
    expect(html).toContain('value="cancel" class="cancel">Cancel and return</button>');
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(new URL(action, BASE_URL).searchParams.get("popup")).toBe("1");
    expect(html).not.toContain("<script");
    expect(cspDirectives(response).get("script-src")).toBeUndefined();
    expect(cspDirectives(response).get("default-src")).toBe("'none'");

    // The redirect flow keeps its two buttons.
    const redirectPage = await (await paypalFetch(`${BASE_URL}/checkoutnow?token=${orderId}`)).text();
    expect(redirectPage).not.toContain("Cancel and return");
  });

  it("answers the approval with a page whose one script posts to the opener, allowed by its hash alone", async () => {
    const { paypalFetch, client } = setup();
    const orderId = await createOrderId(client);
    const response = await paypalFetch(`${BASE_URL}/checkoutnow?token=${orderId}&popup=1`, {
      method: "POST",
      body: new URLSearchParams({ choice: "pay" }),
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-order-id="${orderId}" data-outcome="approved"`);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
    expect(scripts).toHaveLength(1);
    const [script = ""] = scripts;
    expect(script).toContain("window.opener.postMessage(message, window.location.origin)");
    expect(script).toContain('source: "fake-paypal"');
    expect(script).toContain("window.close()");

    const csp = cspDirectives(response);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script));
    expect(csp.get("script-src")).toBe(`'sha256-${encodeBase64(new Uint8Array(digest))}'`);
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(expectOk(await client.getOrder(orderId)).status).toBe("APPROVED");
  });

  it("answers Cancel and return with outcome cancelled, order untouched; the redirect flow refuses it", async () => {
    const { paypalFetch, client } = setup();
    const orderId = await createOrderId(client);
    const cancel = () => ({
      method: "POST",
      body: new URLSearchParams({ choice: "cancel" }),
      redirect: "manual" as const,
    });
    const popup = await paypalFetch(`${BASE_URL}/checkoutnow?token=${orderId}&popup=1`, cancel());
    expect(popup.status).toBe(200);
    expect(await popup.text()).toContain(`data-order-id="${orderId}" data-outcome="cancelled"`);
    expect(expectOk(await client.getOrder(orderId)).status).toBe("CREATED");

    const redirect = await paypalFetch(`${BASE_URL}/checkoutnow?token=${orderId}`, cancel());
    expect(redirect.status).toBe(400);
    expect(expectOk(await client.getOrder(orderId)).status).toBe("CREATED");

    const unknown = await paypalFetch(`${BASE_URL}/checkoutnow?token=FAKENOSUCHORDER&popup=1`, cancel());
    expect(unknown.status).toBe(404);
  });
});
