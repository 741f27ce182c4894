// Debouncing and stale-response handling for as-you-type search (tested in async.test.ts).

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Runs a pending call now. */
  flush(): void;
}

/** Calls fn once the calls have stopped for ms milliseconds, with the last arguments. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: A | undefined;
  const d = ((...args: A) => {
    last = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const a = last!;
      last = undefined;
      fn(...a);
    }, ms);
  }) as Debounced<A>;
  d.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    last = undefined;
  };
  d.flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    const a = last!;
    last = undefined;
    fn(...a);
  };
  return d;
}

/**
 * Keeps only the latest of overlapping requests: each run() gets a ticket, and its result is
 * delivered only if no later run() started meanwhile. Responses that arrive out of order (an
 * old, slow query answering after a newer one) are dropped.
 */
export class Latest {
  private seq = 0;

  /** Starts a request; returns a function telling whether it is still the latest. */
  begin(): () => boolean {
    const ticket = ++this.seq;
    return () => ticket === this.seq;
  }

  /** Invalidates every request in flight (e.g. when the query is cleared). */
  invalidate(): void {
    this.seq++;
  }

  /**
   * Runs a request; resolves with {value} or rejects with its error if it is still the latest
   * when it settles, else resolves with {stale: true}.
   */
  async run<T>(p: () => Promise<T>): Promise<{ stale: false; value: T } | { stale: true }> {
    const current = this.begin();
    try {
      const value = await p();
      return current() ? { stale: false, value } : { stale: true };
    } catch (e) {
      if (!current()) return { stale: true };
      throw e;
    }
  }
}

/**
 * As-you-type: waits ms after the last input, then runs the request, delivering only the latest
 * answer; typing again drops the answer on its way. A request that a newer one replaces is
 * aborted through its signal (a browser's fetch then stops; the window's bindings cannot
 * abort, and the stale answer is dropped when it comes). An empty input cancels what is
 * pending and in flight and calls onClear.
 */
export function liveQuery<Q, R>(opts: {
  ms: number;
  isEmpty: (q: Q) => boolean;
  request: (q: Q, signal: AbortSignal) => Promise<R>;
  onStart?: (q: Q) => void;
  onResult: (r: R, q: Q) => void;
  onError: (e: unknown, q: Q) => void;
  onClear?: () => void;
}): { input(q: Q): void; now(q: Q): void; cancel(): void } {
  const latest = new Latest();
  let inflight: AbortController | undefined;
  const abort = () => {
    inflight?.abort();
    inflight = undefined;
  };
  const fire = async (q: Q) => {
    abort();
    const ctl = new AbortController();
    inflight = ctl;
    opts.onStart?.(q);
    try {
      const r = await latest.run(() => opts.request(q, ctl.signal));
      if (!r.stale) opts.onResult(r.value, q);
    } catch (e) {
      opts.onError(e, q);
    } finally {
      if (inflight === ctl) inflight = undefined;
    }
  };
  const d = debounce(fire, opts.ms);
  const clear = () => {
    d.cancel();
    latest.invalidate();
    abort();
    opts.onClear?.();
  };
  return {
    input(q: Q) {
      if (opts.isEmpty(q)) return clear();
      // A key makes the answer on its way stale: it is never shown (nor read, in a browser),
      // so results render once typing pauses, not behind every key while it goes on.
      latest.invalidate();
      abort();
      d(q);
    },
    now(q: Q) {
      d.cancel();
      if (opts.isEmpty(q)) return clear();
      void fire(q);
    },
    cancel() {
      d.cancel();
      latest.invalidate();
      abort();
    },
  };
}
