/** The part of meSpeak's Emscripten build (`mespeak/src/ESpeak.js`, CommonJS) the engine uses. */
declare module "mespeak/src/ESpeak.js" {
  interface EmscriptenFile {
    contents: number[] | Uint8Array;
  }
  interface EmscriptenFolder {
    contents: Record<string, EmscriptenFile>;
    write: boolean;
  }
  export interface ESpeakInstance {
    Module: { arguments: string[] };
    FS: {
      root: EmscriptenFolder;
      /** One entry per file ever opened: the runtime never reuses a descriptor. */
      streams: unknown[];
      findObject(path: string): unknown;
      createPath(parent: string, path: string, canRead: boolean, canWrite: boolean): unknown;
      createDataFile(parent: string, name: string, data: Uint8Array, canRead: boolean, canWrite: boolean): unknown;
    };
    run(): void;
  }
  const ESpeak: new () => ESpeakInstance;
  export default ESpeak;
}
