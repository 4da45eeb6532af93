/** The part of `@cashfreepayments/cashfree-js` (which ships no types) that checkout uses. */
declare module "@cashfreepayments/cashfree-js" {
  export interface CashfreeCheckoutResult {
    error?: { message?: string; code?: string; type?: string };
    redirect?: boolean;
    paymentDetails?: { paymentMessage?: string };
  }
  export interface CashfreeInstance {
    checkout(options: {
      paymentSessionId: string;
      redirectTarget?: "_self" | "_blank" | "_top" | "_modal" | HTMLElement;
    }): Promise<CashfreeCheckoutResult | undefined>;
  }
  export function load(options: { mode: "sandbox" | "production" }): Promise<CashfreeInstance | null>;
}
