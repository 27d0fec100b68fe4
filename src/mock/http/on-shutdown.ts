/** What runs when each shutdown signal aborts, by signal: one listener on each, whatever the count. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `close` when `shutdown` aborts (at once if it has), and gives back
 * what takes it off again. However many requests wait (a hung scenario
 * fault holds one per request), the signal has one listener: one each would
 * pass node's limit of 10 and print MaxListenersExceededWarning on stderr,
 * which is not a JSON log line.
 */
export function onShutdown(shutdown: AbortSignal | undefined, close: () => void): () => void {
  if (!shutdown) return () => undefined;
  if (shutdown.aborted) {
    close();
    return () => undefined;
  }
  let closes = waiting.get(shutdown);
  if (!closes) {
    const all = new Set<() => void>();
    waiting.set(shutdown, all);
    shutdown.addEventListener('abort', () => [...all].forEach((each) => each()), { once: true });
    closes = all;
  }
  closes.add(close);
  const own = closes;
  return () => void own.delete(close);
}
