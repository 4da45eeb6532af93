/**
 * Memoizes an async loader, typically a dynamic `import()` of a dataset, so the data is parsed
 * on the first request that needs it rather than at Worker startup (every hosted API's index is
 * loaded eagerly). A failed load is not kept: the next call tries again instead of failing for
 * the rest of the isolate's life.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
