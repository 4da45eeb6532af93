/** Money as the payment screens show it: integer minor units in, a localised price out. */
export function formatPrice(minor: number, currency: string): string {
  return new Intl.NumberFormat(currency === "INR" ? "en-IN" : "en-US", { style: "currency", currency }).format(
    minor / 100,
  );
}

/** The message of the error catalogue (docs/product.md#site-errors) for any failed session creation or capture. */
export const PAYMENT_ERROR_MESSAGE = "Unable to process the payment. Please try again.";
