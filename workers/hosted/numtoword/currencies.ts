/**
 * Currency unit names for spelling amounts, with the number of minor-unit digits from
 * ISO 4217 (JPY, KRW and VND have none; KWD and BHD divide into 1,000 fils).
 */
export interface CurrencyUnits {
  major: readonly [singular: string, plural: string];
  /** Absent for currencies without a minor unit in use. */
  minor?: readonly [singular: string, plural: string];
  minorDigits: 0 | 2 | 3;
}

const dollar = ["dollar", "dollars"] as const;
const cent = ["cent", "cents"] as const;
const rupee = ["rupee", "rupees"] as const;
const paisa = ["paisa", "paise"] as const;
const centavo = ["centavo", "centavos"] as const;

export const CURRENCIES = {
  USD: { major: dollar, minor: cent, minorDigits: 2 },
  EUR: { major: ["euro", "euros"], minor: cent, minorDigits: 2 },
  GBP: { major: ["pound", "pounds"], minor: ["penny", "pence"], minorDigits: 2 },
  INR: { major: rupee, minor: paisa, minorDigits: 2 },
  JPY: { major: ["yen", "yen"], minorDigits: 0 },
  CNY: { major: ["yuan", "yuan"], minor: ["fen", "fen"], minorDigits: 2 },
  CAD: { major: dollar, minor: cent, minorDigits: 2 },
  AUD: { major: dollar, minor: cent, minorDigits: 2 },
  NZD: { major: dollar, minor: cent, minorDigits: 2 },
  SGD: { major: dollar, minor: cent, minorDigits: 2 },
  HKD: { major: dollar, minor: cent, minorDigits: 2 },
  CHF: { major: ["franc", "francs"], minor: ["centime", "centimes"], minorDigits: 2 },
  SEK: { major: ["krona", "kronor"], minor: ["öre", "öre"], minorDigits: 2 },
  NOK: { major: ["krone", "kroner"], minor: ["øre", "øre"], minorDigits: 2 },
  DKK: { major: ["krone", "kroner"], minor: ["øre", "øre"], minorDigits: 2 },
  PLN: { major: ["zloty", "zlotys"], minor: ["grosz", "groszy"], minorDigits: 2 },
  RUB: { major: ["ruble", "rubles"], minor: ["kopeck", "kopecks"], minorDigits: 2 },
  TRY: { major: ["lira", "liras"], minor: ["kurus", "kurus"], minorDigits: 2 },
  BRL: { major: ["real", "reais"], minor: centavo, minorDigits: 2 },
  MXN: { major: ["peso", "pesos"], minor: centavo, minorDigits: 2 },
  PHP: { major: ["peso", "pesos"], minor: centavo, minorDigits: 2 },
  ZAR: { major: ["rand", "rand"], minor: cent, minorDigits: 2 },
  AED: { major: ["dirham", "dirhams"], minor: ["fils", "fils"], minorDigits: 2 },
  SAR: { major: ["riyal", "riyals"], minor: ["halala", "halalas"], minorDigits: 2 },
  KWD: { major: ["dinar", "dinars"], minor: ["fils", "fils"], minorDigits: 3 },
  BHD: { major: ["dinar", "dinars"], minor: ["fils", "fils"], minorDigits: 3 },
  ILS: { major: ["shekel", "shekels"], minor: ["agora", "agorot"], minorDigits: 2 },
  EGP: { major: ["pound", "pounds"], minor: ["piastre", "piastres"], minorDigits: 2 },
  NGN: { major: ["naira", "naira"], minor: ["kobo", "kobo"], minorDigits: 2 },
  PKR: { major: rupee, minor: paisa, minorDigits: 2 },
  NPR: { major: rupee, minor: paisa, minorDigits: 2 },
  LKR: { major: rupee, minor: cent, minorDigits: 2 },
  BDT: { major: ["taka", "taka"], minor: ["poisha", "poisha"], minorDigits: 2 },
  THB: { major: ["baht", "baht"], minor: ["satang", "satang"], minorDigits: 2 },
  MYR: { major: ["ringgit", "ringgit"], minor: ["sen", "sen"], minorDigits: 2 },
  IDR: { major: ["rupiah", "rupiah"], minor: ["sen", "sen"], minorDigits: 2 },
  KRW: { major: ["won", "won"], minorDigits: 0 },
  VND: { major: ["dong", "dong"], minorDigits: 0 },
} as const satisfies Record<string, CurrencyUnits>;

export type CurrencyCode = keyof typeof CURRENCIES;

export const CURRENCY_CODES = Object.keys(CURRENCIES) as [CurrencyCode, ...CurrencyCode[]];
