/** Lets the progress bar and signals through during long synchronous batches. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Turns of the event loop handed out one after another: items started together (a batch under
 * Promise.all) each begin on a turn of their own, so signals and timers get through between any
 * two, while the items' waits (a remote search, an LLM reply) still overlap. A yield per item
 * alone would not do: immediates queued together all run in one turn.
 */
export function eventLoopTurns(): () => Promise<void> {
  let last = Promise.resolve();
  return () => {
    last = last.then(yieldToEventLoop);
    return last;
  };
}
