// Types for the browser builds the embedded PDF engine imports: pdfmake's UMD bundle and its
// standard-font containers, and html-to-pdfmake (neither ships types). Only what we call.

declare module "pdfmake/build/pdfmake.min.js" {
  interface PdfKitDocument {
    /** pdfkit's catalog: the page tree's `Kids` are written when the document ends. */
    _root: { data: { Pages: { data: { Kids: unknown[]; Count: number } } } };
    on(event: "readable" | "end", listener: () => void): void;
    read(size?: number): Uint8Array | null;
    end(): void;
  }
  interface OutputDocument {
    /** The pdfkit document after layout and rendering, before `end()`. */
    getStream(): Promise<PdfKitDocument>;
    getBuffer(): Promise<Uint8Array>;
  }
  interface PdfMake {
    createPdf(docDefinition: object, options?: object): OutputDocument;
    setUrlAccessPolicy(callback: (url: string) => boolean): void;
    addFontContainer(container: object): void;
    fonts: Record<string, unknown>;
  }
  const pdfMake: PdfMake;
  export default pdfMake;
}

declare module "pdfmake/build/standard-fonts/*.js" {
  const container: { vfs: Record<string, unknown>; fonts: Record<string, unknown> };
  export default container;
}

declare module "html-to-pdfmake" {
  interface HtmlToPdfmakeOptions {
    window: { DOMParser: new () => { parseFromString(html: string, type: string): unknown } };
    imagesByReference?: boolean;
    defaultStyles?: Record<string, Record<string, unknown> | null>;
    ignoreStyles?: string[];
    removeExtraBlanks?: boolean;
    removeTagClasses?: boolean;
    tableAutoSize?: boolean;
  }
  function htmlToPdfmake(
    html: string,
    options: HtmlToPdfmakeOptions & { imagesByReference: true },
  ): {
    content: unknown;
    images: Record<string, string>;
  };
  function htmlToPdfmake(html: string, options: HtmlToPdfmakeOptions): unknown;
  export default htmlToPdfmake;
}
