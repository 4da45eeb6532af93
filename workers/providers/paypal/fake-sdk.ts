/**
 * The browser half of the fake PayPal: a stand-in for PayPal's JS SDK (https://www.paypal.com/sdk/js)
 * and the script of the popup's last page, which tells the SDK how the buyer decided.
 *
 * `@paypal/paypal-js` `loadScript({ clientId, currency, sdkBaseUrl })` inserts
 * `<script src="{sdkBaseUrl}?client-id=…&currency=…">` and then reads `window.paypal` (or the
 * `data-namespace` global). The fake answers that script with `Buttons` and `HostedButtons`
 * drawing plain buttons; PayPal's popup is replaced by the fake's approval page opened with
 * `popup=1`, which posts `{ source: "fake-paypal", orderID, outcome }` back to its opener.
 *
 * Both scripts are plain strings, not functions turned into text: the bundler may rewrite a
 * function's body (esbuild's keepNames adds `__name` calls) into something a browser cannot run.
 */
import { encodeBase64 } from "~workers/providers/signatures/base64";

/** The message the popup posts to its opener; the SDK accepts nothing else. */
export const POPUP_MESSAGE_SOURCE = "fake-paypal";

/**
 * Runs on the popup's result page, whose `#fake-paypal-result` element carries the order id and
 * outcome as data attributes: the script is a constant, so the page's CSP allows it by hash.
 * Target origin is the page's own: the SDK page that opened it is on the same origin.
 */
export const POPUP_RESULT_SCRIPT = `(() => {
  const result = document.getElementById("fake-paypal-result");
  if (!result) return;
  const message = {
    source: "${POPUP_MESSAGE_SOURCE}",
    orderID: result.dataset.orderId,
    outcome: result.dataset.outcome,
  };
  if (window.opener) window.opener.postMessage(message, window.location.origin);
  window.close();
})();`;

let popupScriptHash: Promise<string> | undefined;

/** `'sha256-…'` of `POPUP_RESULT_SCRIPT`, as a CSP `script-src` source. */
export function popupResultScriptSource(): Promise<string> {
  popupScriptHash ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(POPUP_RESULT_SCRIPT))
    .then((digest) => `'sha256-${encodeBase64(new Uint8Array(digest))}'`);
  return popupScriptHash;
}

/**
 * The SDK script. `basePath` is the fake's path on the app's origin ("/dev/paypal"): the popup is
 * opened there, on the page's own origin, so the SDK can insist that messages come from it.
 */
export function renderFakePayPalSdk(basePath: string): string {
  // JSON, with "<" escaped, is a safe JavaScript string literal even inside an HTML <script>.
  const literal = (value: string) => JSON.stringify(value).replaceAll("<", "\\u003c");
  return `/* Fake PayPal JS SDK: development only. No real money moves. */
(() => {
  "use strict";
  const BASE_PATH = ${literal(basePath)};
  const POPUP_NAME = "fake-paypal";
  const POPUP_FEATURES = "width=480,height=640";
  const MESSAGE_SOURCE = ${literal(POPUP_MESSAGE_SOURCE)};
  /** After the popup closes, how long a message it posted just before closing may take to arrive. */
  const CLOSE_GRACE_MS = 500;

  const script = document.currentScript;
  const namespace = (script && script.getAttribute("data-namespace")) || "paypal";

  function resolveContainer(container) {
    const element = typeof container === "string" ? document.querySelector(container) : container;
    if (!element || typeof element.appendChild !== "function") {
      throw new Error("Fake PayPal: cannot find the container " + String(container));
    }
    return element;
  }

  function makeButton(label, text) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "paypal-button";
    button.setAttribute("aria-label", label);
    button.textContent = text;
    // CSSOM, not a style attribute: a page's CSP may refuse inline style attributes.
    Object.assign(button.style, {
      display: "block",
      width: "100%",
      minHeight: "45px",
      padding: "0.6rem 1rem",
      border: "0",
      borderRadius: "4px",
      background: "#ffc439",
      color: "#003087",
      font: "italic 700 1.1rem/1.2 system-ui, sans-serif",
      cursor: "pointer",
    });
    return button;
  }

  function reportError(options, error) {
    if (typeof options.onError === "function") {
      try {
        options.onError(error);
        return;
      } catch (handlerError) {
        console.error("Fake PayPal: onError threw", handlerError);
      }
    }
    console.error("Fake PayPal:", error);
  }

  function popupUrl(orderID) {
    return BASE_PATH + "/checkoutnow?token=" + encodeURIComponent(orderID) + "&popup=1";
  }

  /** Resolves "approved" or "cancelled" (a Cancel on the page, or the popup closed). */
  function waitForOutcome(popup, orderID) {
    return new Promise((resolve) => {
      let settled = false;
      let closeTimer = 0;
      const finish = (outcome) => {
        if (settled) return;
        settled = true;
        window.removeEventListener("message", onMessage);
        clearInterval(pollTimer);
        clearTimeout(closeTimer);
        resolve(outcome);
      };
      const onMessage = (event) => {
        if (event.origin !== window.location.origin || event.source !== popup) return;
        const data = event.data;
        if (!data || data.source !== MESSAGE_SOURCE || data.orderID !== orderID) return;
        if (data.outcome === "approved" || data.outcome === "cancelled") finish(data.outcome);
      };
      window.addEventListener("message", onMessage);
      const pollTimer = setInterval(() => {
        if (popup.closed && !closeTimer) closeTimer = setTimeout(() => finish("cancelled"), CLOSE_GRACE_MS);
      }, 250);
    });
  }

  function Buttons(options) {
    options = options || {};
    let container = null;
    let button = null;
    let notice = null;
    let busy = false;

    /**
     * Opens the popup, or, when the browser blocks it (no click to justify it, as after
     * actions.restart()), asks for one click that opens it.
     */
    function openPopup(orderID) {
      const popup = window.open(popupUrl(orderID), POPUP_NAME, POPUP_FEATURES);
      if (popup) return Promise.resolve(popup);
      if (!container) return Promise.reject(new Error("Fake PayPal: the popup was blocked"));
      return new Promise((resolve, reject) => {
        if (notice) notice.remove();
        notice = makeButton("Continue with PayPal", "Continue with PayPal");
        notice.addEventListener("click", () => {
          notice.remove();
          notice = null;
          const retried = window.open(popupUrl(orderID), POPUP_NAME, POPUP_FEATURES);
          if (retried) resolve(retried);
          else reject(new Error("Fake PayPal: the popup was blocked"));
        });
        container.appendChild(notice);
      });
    }

    /** One round in the popup, then onApprove or onCancel. Reports its own errors, never throws. */
    async function approve(orderID) {
      try {
        const popup = await openPopup(orderID);
        const outcome = await waitForOutcome(popup, orderID);
        if (outcome !== "approved") {
          if (typeof options.onCancel === "function") await options.onCancel({ orderID });
          return;
        }
        const actions = {
          // INSTRUMENT_DECLINED: the buyer picks another way to pay for the same order.
          restart: () => approve(orderID),
          order: {
            capture: () => Promise.reject(new Error("Fake PayPal: capture orders on the server")),
            get: () => Promise.reject(new Error("Fake PayPal: read orders on the server")),
          },
        };
        if (typeof options.onApprove === "function") {
          await options.onApprove({ orderID, payerID: "FAKEPAYER", paymentSource: "paypal" }, actions);
        }
      } catch (error) {
        reportError(options, error);
      }
    }

    async function checkout() {
      if (busy) return;
      busy = true;
      if (button) button.disabled = true;
      try {
        if (typeof options.createOrder !== "function") throw new Error("Fake PayPal: createOrder is required");
        const createActions = {
          order: { create: () => Promise.reject(new Error("Fake PayPal: create orders on the server")) },
        };
        const orderID = await options.createOrder({ paymentSource: "paypal" }, createActions);
        if (typeof orderID !== "string" || orderID === "") {
          throw new Error("Fake PayPal: expected an order id from createOrder");
        }
        await approve(orderID);
      } catch (error) {
        reportError(options, error);
      } finally {
        busy = false;
        if (button) button.disabled = false;
      }
    }

    return {
      isEligible: () => true,
      render(target) {
        try {
          container = resolveContainer(target);
        } catch (error) {
          return Promise.reject(error);
        }
        button = makeButton("PayPal", "PayPal");
        button.addEventListener("click", () => void checkout());
        container.appendChild(button);
        if (typeof options.onInit === "function") options.onInit({}, { enable() {}, disable() {} });
        return Promise.resolve();
      },
      close() {
        if (button) button.remove();
        if (notice) notice.remove();
        button = null;
        notice = null;
        return Promise.resolve();
      },
    };
  }

  /** Stands in for a hosted button: PayPal takes such payments on its own pages, so this only shows the id. */
  function HostedButtons(options) {
    const hostedButtonId = String((options && options.hostedButtonId) || "");
    return {
      render(target) {
        let container;
        try {
          container = resolveContainer(target);
        } catch (error) {
          return Promise.reject(error);
        }
        const button = makeButton("Pay with PayPal", "Pay with PayPal");
        button.setAttribute("data-hosted-button-id", hostedButtonId);
        button.title = "Fake PayPal hosted button " + hostedButtonId;
        button.addEventListener("click", () => {
          window.open(
            BASE_PATH + "/checkoutnow?hosted_button_id=" + encodeURIComponent(hostedButtonId) + "&popup=1",
            POPUP_NAME,
            POPUP_FEATURES,
          );
        });
        const caption = document.createElement("small");
        caption.textContent = "Hosted button " + hostedButtonId + " (fake)";
        container.appendChild(button);
        container.appendChild(caption);
        return Promise.resolve();
      },
    };
  }

  window[namespace] = {
    version: "fake",
    FUNDING: { PAYPAL: "paypal", CARD: "card", VENMO: "venmo", PAYLATER: "paylater" },
    Buttons,
    HostedButtons,
  };
})();
`;
}
