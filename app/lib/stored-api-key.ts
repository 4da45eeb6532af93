/**
 * The reader's API key for the docs samples and live demos, kept in this browser only (we keep
 * just a hash on the server, so it cannot come from there). Filled when a key is created.
 */
import { useEffect, useState } from "react";

export const STORED_KEY_NAME = "portico_api_key";

export function rememberApiKey(key: string): void {
  try {
    localStorage.setItem(STORED_KEY_NAME, key);
  } catch {
    // Storage disabled: the reader pastes the key instead.
  }
}

/** Forgets the key when the reader signs out, so the next person at this browser does not get it. */
export function forgetApiKey(): void {
  try {
    localStorage.removeItem(STORED_KEY_NAME);
  } catch {
    // Storage disabled: nothing was kept.
  }
}

export function useStoredApiKey(): [string, (key: string) => void] {
  const [key, setKey] = useState("");
  useEffect(() => {
    try {
      setKey(localStorage.getItem(STORED_KEY_NAME) ?? "");
    } catch {
      setKey("");
    }
  }, []);
  const update = (value: string) => {
    setKey(value);
    try {
      if (value) localStorage.setItem(STORED_KEY_NAME, value);
      else localStorage.removeItem(STORED_KEY_NAME);
    } catch {
      // As above.
    }
  };
  return [key, update];
}
