/** Where the fake resolver is "reached": never fetched, only named (kept apart so a production build can name it without holding the fake). */
export const FAKE_DOH_ENDPOINT = "https://dns.fake.invalid/dns-query";
