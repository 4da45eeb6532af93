/**
 * The Currency Converter's inputs and answers. The GET calls take Frankfurter's query
 * (`from`/`base`, `to`/`symbols`, `amount`) so a client written for it works by changing the
 * base URL; the POST takes `{from, to, amount, date?}`.
 */
import { z } from "zod";

/** At most this many target currencies per call: more than the ECB has ever published at once (41). */
export const TARGETS_MAX = 50;
/** Amounts above this lose cents in a double; nobody converts more in one call. */
export const AMOUNT_MAX = 1e15;

const codeText = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, "a three-letter ISO 4217 code, such as USD")
  .transform((code) => code.toUpperCase());

/** Codes as one comma-separated string ("USD,GBP"), repeated parameters, or a JSON array. */
const codeList = z
  .union([z.string().max(400), z.array(z.string().max(400)).max(TARGETS_MAX)])
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(","))
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(codeText).min(1, "name at least one currency").max(TARGETS_MAX, `at most ${TARGETS_MAX} currencies`))
  .transform((codes) => [...new Set(codes)]);

const amount = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d{1,16}(?:\.\d{1,16})?$/, "a positive number such as 100 or 12.5")
      .transform(Number),
  ])
  .pipe(
    z
      .number()
      .positive("more than 0")
      .max(AMOUNT_MAX, `at most ${AMOUNT_MAX}`)
      .refine(Number.isFinite, "a finite number"),
  );

const baseFields = {
  from: codeText.optional().describe("The currency converted from (ISO 4217); EUR when absent. `base` is the same."),
  base: codeText.optional().describe("Frankfurter's name for `from`."),
  to: codeList
    .optional()
    .describe(
      "Currencies converted to, comma-separated; every one the ECB published that day when absent. `symbols` is the same.",
    ),
  symbols: codeList.optional().describe("Frankfurter's name for `to`."),
  amount: amount
    .optional()
    .describe("The amount converted; 1 when absent. The answer's `rates` are this amount in each currency."),
};

export interface RatesQuery {
  base: string;
  targets: string[] | undefined;
  amount: number;
}

/** One value for each pair of names; both given and different is a mistake worth naming. */
function mergeAliases<T extends { from?: string; base?: string; to?: string[]; symbols?: string[]; amount?: number }>(
  input: T,
  ctx: z.RefinementCtx,
): RatesQuery {
  if (input.from !== undefined && input.base !== undefined && input.from !== input.base) {
    ctx.addIssue({ code: "custom", path: ["base"], message: "give `from` or `base`, not two different currencies" });
  }
  if (input.to !== undefined && input.symbols !== undefined && input.to.join() !== input.symbols.join()) {
    ctx.addIssue({ code: "custom", path: ["symbols"], message: "give `to` or `symbols`, not both" });
  }
  return { base: input.from ?? input.base ?? "EUR", targets: input.to ?? input.symbols, amount: input.amount ?? 1 };
}

export const LatestQuerySchema = z.object(baseFields).transform(mergeAliases);

export const DatedQuerySchema = z
  .object({
    date: z
      .string()
      .max(40)
      .describe(
        "A day `YYYY-MM-DD`, or a range `YYYY-MM-DD..YYYY-MM-DD` whose end may be left out (up to the newest day).",
      ),
    ...baseFields,
  })
  .transform((input, ctx) => ({ date: input.date, ...mergeAliases(input, ctx) }));

export const CurrenciesQuerySchema = z.object({
  all: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .describe("`true` to list the currencies the ECB no longer publishes too (the kuna, the lira before 2005, …)."),
});

export const ConvertInputSchema = z
  .object({
    from: codeText.describe("The currency converted from (ISO 4217)."),
    to: codeList.describe("One currency, several comma-separated, or an array."),
    amount: amount.describe("The amount converted."),
    date: z
      .string()
      .max(40)
      .optional()
      .describe(
        "The day whose rates to use, `YYYY-MM-DD`; the newest when absent. A weekend or holiday uses the business day before.",
      ),
  })
  .strict();

const ratesMap = z.record(z.string(), z.number());
const freshnessFields = {
  source: z.literal("ECB").describe("The European Central Bank's euro foreign exchange reference rates."),
  stale: z
    .boolean()
    .describe(
      "True when the newest stored day is more than one business day behind the ECB's calendar (its fetch kept failing).",
    ),
  ageBusinessDays: z
    .number()
    .int()
    .optional()
    .describe("With `stale`: how many business days the newest stored day is behind."),
};

export const RatesSchema = z.object({
  amount: z.number(),
  base: z.string(),
  date: z.string().describe("The day whose rates answered: the business day on or before the one asked."),
  rates: ratesMap.describe("`amount` of `base` in each currency, rounded at the output."),
  ...freshnessFields,
});

export const RangeSchema = z.object({
  amount: z.number(),
  base: z.string(),
  start_date: z.string().describe("The first business day in the range with rates."),
  end_date: z.string().describe("The last business day in the range with rates."),
  rates: z.record(z.string(), ratesMap).describe("One entry per business day; weekends and holidays have none."),
  ...freshnessFields,
});

export const DatedSchema = z.union([RatesSchema, RangeSchema]);

export const CurrenciesSchema = z.record(z.string(), z.string());

export const ConversionSchema = z.object({
  from: z.string(),
  amount: z.number(),
  date: z.string().describe("The day whose rates answered."),
  requestedDate: z
    .string()
    .optional()
    .describe("The day asked for, when it differs from `date` (a weekend or holiday)."),
  conversions: z.array(
    z.object({
      to: z.string(),
      rate: z.number().describe("One unit of `from` in `to`, rounded at the output."),
      amount: z.number().describe("`amount` in `to`, computed from the unrounded rate."),
    }),
  ),
  ...freshnessFields,
});
