/** A count of bytes held at once, up to a capacity: what takes some gives them back. */
export interface ByteBudget {
  readonly capacity: number;
  /** Bytes held now. */
  readonly held: number;
  /** Holds `bytes` if they fit under the capacity; false (nothing held) if not. */
  take(bytes: number): boolean;
  give(bytes: number): void;
}

export function createByteBudget(capacity: number): ByteBudget {
  let held = 0;
  return {
    capacity,
    get held() {
      return held;
    },
    take(bytes) {
      if (held + bytes > capacity) return false;
      held += bytes;
      return true;
    },
    give(bytes) {
      held -= bytes;
    },
  };
}
