/**
 * The Currency Converter's calls over the stored ECB days (workers/providers/ecb): a day's
 * rates (the newest, or the business day on or before a date), a range's business days, the
 * currencies, and one conversion. Every refusal names the field and the reason; a store with
 * nothing in it is filled once from the feed, and a feed that fails then is a 502 naming it.
 */
import { dateOfDay, dayNumber, freshness } from "~workers/providers/ecb/calendar";
import type { DayRates } from "~workers/providers/ecb/feed";
import type { CurrencySpan } from "~workers/providers/ecb/store";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import {
  convertOnDay,
  euroRate,
  FIRST_ECB_DAY,
  latestAskableDay,
  parseDatePath,
  roundAll,
  roundOutput,
  unpublishedDetail,
} from "./engine";
import type { RatesQuery } from "./schema";

/** Ten years of days per range call: about 2,600 business days, a few MB with every currency. */
export const RANGE_DAYS_MAX = 3653;

type Checked<T> = { ok: true; value: T } | { ok: false; result: HandlerResult };

const refuse = (field: string, message: string, extensions?: Record<string, unknown>): HandlerResult =>
  problemResult("invalid-input", message, { errors: { [field]: message }, ...extensions });

/**
 * Every currency the store knows, filling a new database from the feed first: one with no day
 * at all, or one whose only days are the bundled snapshot's and already stale (a fresh
 * deployment, or `npm run dev` on a new local database, whose snapshot ends months before).
 * When that fill fails, the snapshot's days answer, with `stale` saying how old they are.
 */
async function knownSpans(ctx: OperationContext): Promise<Checked<Map<string, CurrencySpan>>> {
  const byCode = (spans: readonly CurrencySpan[]) => new Map(spans.map((span) => [span.code, span]));
  let known = byCode(await ctx.rates.store.spans());
  // Only a stale store is asked whether it was ever fetched into: a healthy one pays no extra read.
  const snapshotOnly =
    known.size > 0 && freshness(newestDay(known), ctx.rates.now()).stale && !(await ctx.rates.store.hasFetchedDays());
  if (known.size === 0 || snapshotOnly) {
    const failure = await ctx.rates.fillEmpty(ctx.signal);
    if (failure && snapshotOnly) return { ok: true, value: known };
    if (failure) {
      return {
        ok: false,
        result: problemResult(
          "upstream-failed",
          `No ECB rates are stored here yet, and the ECB's feed failed: ${failure.detail}`,
          {
            upstream: "ECB",
          },
        ),
      };
    }
    ctx.waitUntil(ctx.rates.fillHistory());
    known = byCode(await ctx.rates.store.spans());
  }
  return { ok: true, value: known };
}

/** Unknown codes are refused before any rate is read. */
function checkCodes(
  spans: Map<string, CurrencySpan>,
  query: RatesQuery,
  fields: { base: string; targets: string },
): HandlerResult | null {
  const unknown = (code: string) => code !== "EUR" && !spans.has(code);
  if (unknown(query.base))
    return refuse(
      fields.base,
      `${query.base} is not a currency the ECB publishes. GET /currencies?all=true lists them.`,
    );
  const bad = (query.targets ?? []).filter(unknown);
  if (bad.length > 0) {
    return refuse(
      fields.targets,
      `${bad.join(", ")} ${bad.length === 1 ? "is not a currency" : "are not currencies"} the ECB publishes. GET /currencies?all=true lists them.`,
    );
  }
  return null;
}

function newestDay(spans: Map<string, CurrencySpan>): string {
  let newest = "";
  for (const span of spans.values()) if (span.last > newest) newest = span.last;
  return newest;
}

function freshnessOf(spans: Map<string, CurrencySpan>, ctx: OperationContext) {
  return { source: "ECB" as const, ...freshness(newestDay(spans), ctx.rates.now()) };
}

/** A requested day checked against the ECB's calendar and the caller's clock. */
function checkDate(date: string, field: string, ctx: OperationContext): HandlerResult | null {
  const day = dayNumber(date);
  if (day === null) return refuse(field, `${date} is not a date (YYYY-MM-DD).`);
  if (date < FIRST_ECB_DAY) return refuse(field, `The ECB's reference rates begin on ${FIRST_ECB_DAY}.`);
  if (day > latestAskableDay(ctx.rates.now()))
    return refuse(field, `${date} is in the future; the newest rates are at /latest.`);
  return null;
}

/** The day on or before `date`, with every asked currency published that day. */
async function dayFor(
  date: string,
  query: RatesQuery,
  spans: Map<string, CurrencySpan>,
  ctx: OperationContext,
  fields: { base: string; targets: string },
): Promise<Checked<DayRates>> {
  const day = await ctx.rates.store.onOrBefore(date);
  if (!day) {
    const first = [...spans.values()].reduce((min, span) => (span.first < min ? span.first : min), "9999-12-31");
    return {
      ok: false,
      result: problemResult(
        "not-found",
        `No ECB rates are stored for ${date} or the days before it; this service holds them from ${first}.`,
        {
          firstDate: first,
        },
      ),
    };
  }
  for (const [code, field] of [
    [query.base, fields.base],
    ...(query.targets ?? []).map((code) => [code, fields.targets]),
  ] as const) {
    const span = spans.get(code);
    if (euroRate(day, code) === undefined && span) {
      const { detail, extensions } = unpublishedDetail(code, day.date, span);
      return { ok: false, result: refuse(field, detail, extensions) };
    }
  }
  return { ok: true, value: day };
}

export async function handleLatest(query: RatesQuery, ctx: OperationContext): Promise<HandlerResult> {
  return answerDay("9999-12-31", query, ctx);
}

async function answerDay(date: string, query: RatesQuery, ctx: OperationContext): Promise<HandlerResult> {
  const fields = { base: "from", targets: "to" };
  const spans = await knownSpans(ctx);
  if (!spans.ok) return spans.result;
  const unknown = checkCodes(spans.value, query, fields);
  if (unknown) return unknown;
  const day = await dayFor(date, query, spans.value, ctx, fields);
  if (!day.ok) return day.result;
  const converted = convertOnDay(day.value, query.base, query.targets, query.amount) ?? {};
  return json({
    amount: query.amount,
    base: query.base,
    date: day.value.date,
    rates: roundAll(converted),
    ...freshnessOf(spans.value, ctx),
  });
}

export async function handleDated(input: RatesQuery & { date: string }, ctx: OperationContext): Promise<HandlerResult> {
  const path = parseDatePath(input.date);
  if ("error" in path) return refuse("date", path.error);
  if (path.kind === "day") {
    const wrong = checkDate(path.date, "date", ctx);
    return wrong ?? answerDay(path.date, input, ctx);
  }
  const wrong = checkDate(path.start, "date", ctx) ?? (path.end ? checkDate(path.end, "date", ctx) : null);
  if (wrong) return wrong;
  const end = path.end ?? dateOfDay(latestAskableDay(ctx.rates.now()));
  if ((dayNumber(end) as number) - (dayNumber(path.start) as number) > RANGE_DAYS_MAX) {
    return refuse("date", `Ask for at most ${RANGE_DAYS_MAX} days (ten years) per call; split longer ranges.`);
  }
  const spans = await knownSpans(ctx);
  if (!spans.ok) return spans.result;
  const unknown = checkCodes(spans.value, input, { base: "from", targets: "to" });
  if (unknown) return unknown;
  // The base is read too, to divide by; a target list keeps the rows to those currencies.
  const codes = input.targets
    ? [...new Set([...input.targets, input.base])].filter((code) => code !== "EUR")
    : undefined;
  const days = await ctx.rates.store.between(path.start, end, codes);
  const rates: Record<string, Record<string, number>> = {};
  for (const day of days) {
    const converted = convertOnDay(day, input.base, input.targets, input.amount);
    // A day the base was not published (before its first, after its last) has nothing to divide by.
    if (converted && Object.keys(converted).length > 0) rates[day.date] = roundAll(converted);
  }
  const dates = Object.keys(rates);
  if (dates.length === 0) {
    // Say why: a currency that was not published at all in the range, or a range of no business days.
    for (const code of [input.base, ...(input.targets ?? [])]) {
      const span = spans.value.get(code);
      if (span && (span.last < path.start || span.first > end)) {
        const { detail, extensions } = unpublishedDetail(code, span.last < path.start ? path.start : end, span);
        return refuse(code === input.base ? "from" : "to", detail, extensions);
      }
    }
    return problemResult(
      "not-found",
      `The ECB published no rates from ${path.start} to ${end}: weekends and TARGET holidays have none.`,
    );
  }
  return json({
    amount: input.amount,
    base: input.base,
    start_date: dates[0],
    end_date: dates.at(-1),
    rates,
    ...freshnessOf(spans.value, ctx),
  });
}

export async function handleCurrencies(input: { all?: string }, ctx: OperationContext): Promise<HandlerResult> {
  const spans = await knownSpans(ctx);
  if (!spans.ok) return spans.result;
  const newest = newestDay(spans.value);
  const all = input.all === "true" || input.all === "1";
  const names = new Intl.DisplayNames("en", { type: "currency", fallback: "code" });
  const codes = [
    "EUR",
    ...[...spans.value.values()].filter((span) => all || span.last === newest).map((span) => span.code),
  ].sort();
  return json(Object.fromEntries(codes.map((code) => [code, names.of(code) ?? code])));
}

export async function handleConvert(
  input: { from: string; to: string[]; amount: number; date?: string | undefined },
  ctx: OperationContext,
): Promise<HandlerResult> {
  if (input.date !== undefined) {
    const wrong = checkDate(input.date, "date", ctx);
    if (wrong) return wrong;
  }
  const query: RatesQuery = { base: input.from, targets: input.to, amount: input.amount };
  const fields = { base: "from", targets: "to" };
  const spans = await knownSpans(ctx);
  if (!spans.ok) return spans.result;
  const unknown = checkCodes(spans.value, query, fields);
  if (unknown) return unknown;
  const day = await dayFor(input.date ?? "9999-12-31", query, spans.value, ctx, fields);
  if (!day.ok) return day.result;
  const baseRate = euroRate(day.value, input.from) as number;
  return json({
    from: input.from,
    amount: input.amount,
    date: day.value.date,
    ...(input.date !== undefined && input.date !== day.value.date ? { requestedDate: input.date } : {}),
    conversions: input.to.map((code) => {
      const rate = (euroRate(day.value, code) as number) / baseRate;
      return {
        to: code,
        rate: roundOutput(rate),
        amount: roundOutput((input.amount * (euroRate(day.value, code) as number)) / baseRate),
      };
    }),
    ...freshnessOf(spans.value, ctx),
  });
}
