/**
 * The store's state cannot be reached (Redis down, or slower than the
 * command timeout). A request answers it as 503 `store_unavailable`
 * (RFC 9110 §15.6.4: a temporary condition), never as a 500: the mock is
 * not broken, its store is away.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
  constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
  }
}
