/**
 * The country list shared by the phone-codes and location APIs, from world-countries (ODbL,
 * which requires attribution to mledoze/countries). The package is one 1.4 MB JSON array
 * (124 KB gzip once bundled, see docs/decisions/002-location-data.md), imported on the first
 * request that needs it.
 */
import type { Country } from "world-countries";
import { callingCodeDigits, describeCallingCode } from "./calling-code";
import {
  dayOf,
  describeCurrency,
  loadCurrencyRegions,
  tenderOn,
  type Currency,
  type CurrencyNames,
  type RegionCurrencies,
} from "./currencies";
import { lazy } from "./lazy";
import { loadTerritoryFacts, type TerritoryFacts } from "./territories";

export interface CountryFacts {
  /** `nativeName`: the common and official name in each official language, by ISO 639-3 code. */
  name: { common: string; official: string; nativeName: Record<string, { common: string; official: string }> };
  cca2: string;
  cca3: string;
  capital: string[];
  region: string;
  subregion: string;
  /** Legal tender on the day asked, from CLDR (./currencies.ts), not world-countries' frozen list. */
  currencies: Currency[];
  languages: { code: string; name: string }[];
  /** "+44", "+1-684"; null for the two territories without one. */
  callingCode: string | null;
  latlng: [number, number];
  flag: string;
  /** ISO 3166-1 numeric ("356"); null for Kosovo, which has none. */
  ccn3: string | null;
  /** Country-code top-level domains (".in"); empty where none is delegated. */
  tld: string[];
  /** Alpha-3 codes of the countries sharing a land border. */
  borders: string[];
  /** Demonyms by ISO 639-3 language, feminine and masculine ("eng": { f: "Swiss", m: "Swiss" }). */
  demonyms: Record<string, { f: string; m: string }>;
  altSpellings: string[];
  /** The name in other languages, by ISO 639-3 code. */
  translations: Record<string, { common: string; official: string }>;
  unMember: boolean;
  /** Null for Kosovo, whose status the dataset leaves open. */
  independent: boolean | null;
  landlocked: boolean;
  /** Square kilometres; null where the dataset has none (it writes -1 for Svalbard and Jan Mayen). */
  area: number | null;
  /** CLDR's figure (./territories.ts); null for a country CLDR has none for. */
  population: number | null;
  /** REST Countries' continent names over CLDR's containment: one each, "Antarctica" for AQ. */
  continents: string[];
}

interface IndexedCountry {
  /** Everything but the currencies, which depend on the day. */
  facts: Omit<CountryFacts, "currencies">;
  /** world-countries' own names and symbols for the codes it lists. */
  ownCurrencies: ReadonlyMap<string, { name: string; symbol: string }>;
  /**
   * The folded common name, for fragment searches. Official names are left out on purpose:
   * "Independent State of Samoa" would make "ind" find Samoa next to India and Indonesia.
   */
  searchName: string;
  /** Digit strings the country answers to in a calling-code search. */
  callingCodes: readonly string[];
  /** The folded capitals, for capital look-ups. */
  capitals: readonly string[];
  /** Every folded demonym, feminine and masculine, in every language. */
  demonyms: ReadonlySet<string>;
  /** The folded common and official names in every language of `translations`. */
  translatedNames: readonly string[];
}

/** Lower case without diacritics, so "aland" finds "Åland Islands" and "curacao" "Curaçao". */
export function foldText(value: string): string {
  return value
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

function indexCountry(country: Country, territories: TerritoryFacts): IndexedCountry {
  const callingCode = describeCallingCode(country.idd);
  const facts: IndexedCountry["facts"] = {
    name: {
      common: country.name.common,
      official: country.name.official,
      nativeName: Object.fromEntries(
        Object.entries(country.name.native).map(([code, { common, official }]) => [code, { common, official }]),
      ),
    },
    cca2: country.cca2,
    cca3: country.cca3,
    capital: [...country.capital],
    region: country.region,
    subregion: country.subregion,
    languages: Object.entries(country.languages).map(([code, name]) => ({ code, name })),
    callingCode: callingCode?.display ?? null,
    latlng: [country.latlng[0], country.latlng[1]],
    flag: country.flag,
    ccn3: country.ccn3 === "" ? null : country.ccn3,
    tld: [...country.tld],
    borders: [...country.borders],
    demonyms: Object.fromEntries(Object.entries(country.demonyms).map(([code, { f, m }]) => [code, { f, m }])),
    altSpellings: [...country.altSpellings],
    translations: Object.fromEntries(
      Object.entries(country.translations).map(([code, { common, official }]) => [code, { common, official }]),
    ),
    // world-countries 5.1 marks the Holy See a member; it is a permanent observer state
    // (General Assembly resolution 58/314), and the UN has 193 members, not 194.
    unMember: country.cca3 === "VAT" ? false : country.unMember,
    // The type says boolean; the data has null for Kosovo.
    independent: (country.independent as boolean | null) ?? null,
    landlocked: country.landlocked,
    area: country.area >= 0 ? country.area : null,
    population: territories.populationOf(country.cca2),
    continents: territories.continentsOf(country.cca2),
  };
  return {
    facts,
    ownCurrencies: new Map(
      Object.entries(country.currencies).map(([code, { name, symbol }]) => [code, { name, symbol }]),
    ),
    searchName: foldText(country.name.common),
    callingCodes: callingCode?.matches ?? [],
    capitals: country.capital.map(foldText),
    demonyms: new Set(Object.values(country.demonyms).flatMap(({ f, m }) => [foldText(f), foldText(m)])),
    translatedNames: Object.values(country.translations).flatMap(({ common, official }) => [
      foldText(common),
      foldText(official),
    ]),
  };
}

/** The name and symbol most countries give each code in world-countries ("$" for USD, not "Rs" for ZAR). */
function commonCurrencyNames(countries: readonly Country[]): Map<string, { name: string; symbol: string }> {
  const votes = new Map<string, Map<string, { described: { name: string; symbol: string }; count: number }>>();
  for (const country of countries) {
    for (const [code, { name, symbol }] of Object.entries(country.currencies)) {
      const forCode = votes.get(code) ?? new Map();
      const key = `${name}\u0000${symbol}`;
      const vote = forCode.get(key) ?? { described: { name, symbol }, count: 0 };
      vote.count++;
      forCode.set(key, vote);
      votes.set(code, forCode);
    }
  }
  return new Map(
    [...votes].map(([code, forCode]) => [
      code,
      // Ties go to the first seen, so the answer does not depend on Map internals.
      [...forCode.values()].reduce((best, vote) => (vote.count > best.count ? vote : best)).described,
    ]),
  );
}

interface CountryIndex {
  entries: IndexedCountry[];
  common: ReadonlyMap<string, { name: string; symbol: string }>;
  regions: RegionCurrencies;
}

const loadIndex = lazy(async (): Promise<CountryIndex> => {
  const [{ default: countries }, regions, territories] = await Promise.all([
    import("world-countries"),
    loadCurrencyRegions(),
    loadTerritoryFacts(),
  ]);
  return {
    entries: countries
      .map((country) => indexCountry(country, territories))
      .sort((a, b) => a.facts.name.common.localeCompare(b.facts.name.common, "en")),
    common: commonCurrencyNames(countries),
    regions,
  };
});

/**
 * Each country's currencies on one day, kept for the last day asked: every request on the same
 * day shares them, and a new day replaces them.
 */
let currenciesOfDay: { day: string; byCountry: Map<string, Currency[]> } | undefined;

function currenciesOn(index: CountryIndex, day: string): Map<string, Currency[]> {
  if (currenciesOfDay?.day === day) return currenciesOfDay.byCountry;
  const byCountry = new Map(
    index.entries.map((entry) => {
      const names: CurrencyNames = { own: entry.ownCurrencies, common: index.common };
      const codes = tenderOn(index.regions[entry.facts.cca2] ?? [], day);
      return [entry.facts.cca2, codes.map((code) => describeCurrency(code, names))];
    }),
  );
  currenciesOfDay = { day, byCountry };
  return byCountry;
}

export interface CountryFilter {
  /** Terms that must all match: each the start of a word of the common name, or an exact alpha-2/alpha-3 code. */
  nameOrCode?: readonly (string | undefined)[];
  /** The start of a word of the common name. */
  name?: string;
  /** An exact alpha-2 or alpha-3 code. */
  code?: string;
  /** A region ("Asia") or subregion ("Southern Asia"), case-insensitive. */
  region?: string;
  /** A subregion ("Southern Asia"), whole, case and accents ignored. */
  subregion?: string;
  /** A demonym in any language, feminine or masculine ("Peruvian", "Allemande"), whole, case and accents ignored. */
  demonym?: string;
  /** The start of a word of the common or official name in any language of `translations` ("alemania"). */
  translation?: string;
  /** Sovereign states (true) or not (false); Kosovo, left open by the dataset, is in neither. */
  independent?: boolean;
  /** "+1", "44", "+1-684", "1 201": a country code, a written code or a dial prefix. */
  callingCode?: string;
  /** An ISO 4217 code ("EUR") or a currency's English name ("euro"), whole, case-insensitive. */
  currency?: string;
  /** An ISO 639-3 code ("deu") or a language's English name ("German"), whole, case and accents ignored. */
  language?: string;
  /** A capital's name, whole ("new delhi"), case and accents ignored. */
  capital?: string;
}

function matchesCode(country: { cca2: string; cca3: string }, code: string): boolean {
  const upper = code.toUpperCase();
  return country.cca2 === upper || country.cca3 === upper;
}

/**
 * The fragment must start a word of the name ("kingdom", "united st", "ivoire"), as in an
 * autocomplete: a bare substring would make "us" find Austria, Belarus and Cyprus, and "in"
 * half the world.
 */
function matchesName(entry: IndexedCountry, fragment: string): boolean {
  return startsAWord(entry.searchName, foldText(fragment));
}

/** Whether `folded` starts a word of the folded `name`. */
function startsAWord(name: string, folded: string): boolean {
  for (let at = name.indexOf(folded); at !== -1; at = name.indexOf(folded, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(name.charAt(at - 1))) return true;
  }
  return false;
}

/**
 * Countries matching every given filter, sorted by common name, with the currencies legal tender
 * on `on`'s UTC day (the request's date). Empty filters are ignored.
 */
export async function findCountries(filter: CountryFilter, on: Date = new Date()): Promise<CountryFacts[]> {
  const index = await loadIndex();
  const currencies = currenciesOn(index, dayOf(on));
  const withCurrencies = (entry: IndexedCountry): CountryFacts => ({
    ...entry.facts,
    currencies: currencies.get(entry.facts.cca2) ?? [],
  });
  const terms = (filter.nameOrCode ?? []).flatMap((term) => (term?.trim() ? [term.trim()] : []));
  const name = filter.name?.trim();
  const code = filter.code?.trim();
  const region = filter.region?.trim();
  const callingCode = filter.callingCode?.trim() ? callingCodeDigits(filter.callingCode) : undefined;
  const currency = filter.currency?.trim() ? foldText(filter.currency.trim()) : undefined;
  const language = filter.language?.trim() ? foldText(filter.language.trim()) : undefined;
  const capital = filter.capital?.trim() ? foldText(filter.capital.trim()) : undefined;
  const subregion = filter.subregion?.trim() ? foldText(filter.subregion.trim()) : undefined;
  const demonym = filter.demonym?.trim() ? foldText(filter.demonym.trim()) : undefined;
  const translation = filter.translation?.trim() ? foldText(filter.translation.trim()) : undefined;
  return index.entries
    .map((entry) => ({ entry, facts: withCurrencies(entry) }))
    .filter(
      ({ entry, facts }) =>
        terms.every((term) => matchesCode(entry.facts, term) || matchesName(entry, term)) &&
        (!name || matchesName(entry, name)) &&
        (!code || matchesCode(entry.facts, code)) &&
        (!region ||
          [entry.facts.region, entry.facts.subregion].some((value) => foldText(value) === foldText(region))) &&
        (callingCode === undefined || entry.callingCodes.includes(callingCode)) &&
        (currency === undefined ||
          facts.currencies.some((item) => foldText(item.code) === currency || foldText(item.name) === currency)) &&
        (language === undefined ||
          entry.facts.languages.some((item) => foldText(item.code) === language || foldText(item.name) === language)) &&
        (capital === undefined || entry.capitals.includes(capital)) &&
        (subregion === undefined || foldText(entry.facts.subregion) === subregion) &&
        (demonym === undefined || entry.demonyms.has(demonym)) &&
        (translation === undefined ||
          entry.translatedNames.some((translated) => startsAWord(translated, translation))) &&
        (filter.independent === undefined || entry.facts.independent === filter.independent),
    )
    .map(({ facts }) => facts);
}

/** The country with this alpha-2 or alpha-3 code, case-insensitive, with its currencies on `on`'s day. */
export async function findCountryByCode(code: string, on: Date = new Date()): Promise<CountryFacts | undefined> {
  const index = await loadIndex();
  const entry = index.entries.find((candidate) => matchesCode(candidate.facts, code.trim()));
  return entry && { ...entry.facts, currencies: currenciesOn(index, dayOf(on)).get(entry.facts.cca2) ?? [] };
}
