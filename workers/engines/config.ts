/**
 * The engine Worker's configuration (workers/engines/wrangler.toml), parsed once per isolate.
 * Which PDF engine serves `engine: auto` is decided from what exists here: the Browser
 * Rendering binding (production), a local Chromium's DevTools endpoint (`npm run dev` and the
 * tests set CHROMIUM_CDP_URL when Debian's chromium is installed), else the embedded engine.
 */
import { z } from "zod";
import { envReader } from "~workers/config";

/** The engine Worker's bindings and vars. */
export interface EnginesEnv {
  APP_ENV: string;
  PDF_ENGINE: string;
  CHROMIUM_CDP_URL: string;
  /** Cloudflare Browser Rendering; declared in production only (its local mode downloads a browser). */
  BROWSER?: Fetcher;
  /** Every OCR language's model but English's (scripts/ocr-models.ts fills it). */
  OCR_MODELS?: R2Bucket;
}

const EnginesConfigSchema = z
  .object({
    APP_ENV: z.enum(["development", "production"]),
    /** `auto` takes the best engine present; `embedded` never opens a browser (an operator's switch). */
    PDF_ENGINE: z.enum(["auto", "browser", "embedded"]).default("auto"),
    CHROMIUM_CDP_URL: z
      .union([z.literal(""), z.url({ protocol: /^https?$/ })])
      .default("")
      .describe("http://127.0.0.1:<port> of a local Chromium started with --remote-debugging-port"),
  })
  .superRefine((config, ctx) => {
    // A local browser is a development tool: production prints through Browser Rendering only.
    if (config.APP_ENV === "production" && config.CHROMIUM_CDP_URL !== "") {
      ctx.addIssue({ code: "custom", path: ["CHROMIUM_CDP_URL"], message: "must be empty in production" });
    }
  });

export type EnginesConfig = z.infer<typeof EnginesConfigSchema>;

export const readEnginesConfig: (env: EnginesEnv) => EnginesConfig = envReader(EnginesConfigSchema, "engine Worker");
