/**
 * The engine Worker: the heavy engines (a browser or a PDF layout engine, Tesseract, a PDF text
 * reader) in an isolate of their own, reached from the main Worker over the ENGINES service
 * binding's RPC (decision 055). A slow OCR never shares an isolate with the gateway, and the
 * main Worker's startup pays for none of these modules.
 *
 * Each method imports its engine on first use, so an isolate that only prints PDFs never
 * evaluates Tesseract. Methods answer outcome values and never throw for an input: RPC would
 * carry only a thrown error's message. Anything an engine throws is caught here and answered
 * as `engine-failed`, logged with the method's name.
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import type {
  CutoutEngines,
  CutoutOutcome,
  CutoutRequest,
  DocumentEngines,
  DocumentFailure,
  HtmlToPdfOutcome,
  HtmlToPdfRequest,
  OcrOutcome,
  OcrRequest,
  PdfEngineName,
  ResourceFetcher,
  ResumeOutcome,
  ResumeRequest,
  SpeechOutcome,
  SpeechRequest,
  Voice,
} from "~workers/hosted/capabilities";
import { readEnginesConfig, type EnginesEnv } from "./config";

export default class Engines extends WorkerEntrypoint<EnginesEnv> implements DocumentEngines, CutoutEngines {
  /** Nothing is served over HTTP: the Worker has no route in production and answers only RPC. */
  override async fetch(): Promise<Response> {
    return new Response("The engine Worker answers its service binding's RPC only.\n", { status: 404 });
  }

  async htmlToPdf(request: HtmlToPdfRequest, fetchResource: ResourceFetcher): Promise<HtmlToPdfOutcome> {
    return guarded("htmlToPdf", async () => {
      const pdf = await import("./pdf");
      return pdf.htmlToPdf(request, fetchResource, this.env, readEnginesConfig(this.env));
    });
  }

  async pdfEngines(): Promise<PdfEngineName[]> {
    const pdf = await import("./pdf");
    return pdf.availablePdfEngines(this.env, readEnginesConfig(this.env));
  }

  async imageToText(request: OcrRequest): Promise<OcrOutcome> {
    return guarded("imageToText", async () => (await import("./ocr")).imageToText(request, this.env.OCR_MODELS));
  }

  async parseResume(request: ResumeRequest): Promise<ResumeOutcome> {
    return guarded("parseResume", async () => (await import("./resume")).parseResume(request));
  }

  /** Text to Audio's embedded engine, meSpeak (decision 060): WAV. */
  async speak(request: SpeechRequest): Promise<SpeechOutcome> {
    return guarded(
      "speak",
      async () => (await import("./speech")).synthesizeWithMespeak(request),
      "The speech engine failed on this text. Retry, or try a shorter text.",
    );
  }

  /**
   * The voices `speak` takes: a constant list, so nothing here fails on an input; only the
   * module failing to load would throw, which the main Worker's callEngine answers as engine-failed.
   */
  async speechVoices(): Promise<Voice[]> {
    return (await import("./speech")).mespeakVoices();
  }

  /** Remove Background's classic engine (decision 062). */
  async cutOut(request: CutoutRequest): Promise<CutoutOutcome> {
    return guarded("cutOut", async () => (await import("./cutout")).cutOutClassic(request));
  }

  /** Remove Background: size, crop, channels, background and format for Cloudflare Images' cut. */
  async finishCutout(request: Parameters<CutoutEngines["finishCutout"]>[0]): Promise<CutoutOutcome> {
    return guarded("finishCutout", async () => (await import("./cutout")).finishSegmented(request));
  }
}

async function guarded<T>(
  method: string,
  run: () => Promise<T | DocumentFailure>,
  detail = "The engine failed on this input. Retry, or try a simpler document.",
): Promise<T | DocumentFailure> {
  try {
    return await run();
  } catch (error) {
    console.error(`engine ${method} failed`, error);
    return { ok: false, problem: "engine-failed", detail };
  }
}
