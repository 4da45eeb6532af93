/**
 * One task at a time: OCR holds a decoded page (up to 36 MB) and grows Tesseract's heap by ~8
 * bytes a pixel read, so two calls at once in one isolate could together pass its 128 MB where
 * either alone fits. Calls queue here instead; a failed task does not stop the next.
 */
export function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
