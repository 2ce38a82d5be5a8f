/** Resolves on the event loop's next turn: long CPU work awaits it so timers (a job lock's renewal) and I/O get through. */
export function nextTurn(): Promise<void> {
  return new Promise((resolveTurn) => setImmediate(resolveTurn));
}
