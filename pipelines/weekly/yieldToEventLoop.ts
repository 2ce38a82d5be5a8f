/** Lets the progress bar and signals through during long synchronous batches. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
