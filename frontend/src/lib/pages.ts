// Rows of a long list fetched a page at a time as they scroll into view (tested in
// pages.test.ts). The first answer says how many rows there are, so the list has its full
// height (and the scrollbar its true size) before most rows are fetched.

export interface Page<T> {
  rows: T[];
  total: number;
}

export class PagedRows<T> {
  private pages = new Map<number, T[]>();
  /** When each page arrived (a counter), so a refresh drops only pages older than itself. */
  private arrived = new Map<number, number>();
  private clock = 0;
  private inflight = new Set<number>();
  private gen = 0;
  private refreshes = 0;
  /** The number of rows, or -1 until the first page answers. */
  total = -1;

  /**
   * fetch reads `limit` rows from `offset`; changed is called whenever rows or the total
   * change; failed with a fetch's error (stale fetches, of a view since reset, say nothing).
   */
  constructor(
    private fetch: (offset: number, limit: number) => Promise<Page<T>>,
    readonly size: number,
    private changed: () => void,
    private failed: (e: unknown) => void = () => {},
  ) {}

  /** The row at index i, if its page has arrived. */
  get(i: number): T | undefined {
    return this.pages.get(Math.floor(i / this.size))?.[i % this.size];
  }

  /** Whether page p has arrived. */
  has(p: number): boolean {
    return this.pages.has(p);
  }

  /** Forgets every row (the filters or the order changed): what is in flight is dropped. */
  reset(): void {
    this.gen++;
    this.pages.clear();
    this.arrived.clear();
    this.inflight.clear();
    this.total = -1;
  }

  /** Fetches the pages not yet here nor on their way. */
  ensure(pages: number[]): Promise<void> {
    const gen = this.gen;
    const todo = pages.filter((p) => !this.pages.has(p) && !this.inflight.has(p) && (this.total < 0 || p * this.size < this.total || p === 0));
    return Promise.all(
      todo.map(async (p) => {
        this.inflight.add(p);
        try {
          const page = await this.fetch(p * this.size, this.size);
          if (gen !== this.gen) return;
          this.store(p, page);
          this.changed();
        } catch (e) {
          if (gen === this.gen) this.failed(e);
        } finally {
          if (gen === this.gen) this.inflight.delete(p);
        }
      }),
    ).then(() => {});
  }

  private store(p: number, page: Page<T>) {
    this.pages.set(p, page.rows);
    this.arrived.set(p, ++this.clock);
    this.total = page.total;
  }

  /**
   * Reads pages again (the store changed): the rows on screen are replaced when the new ones
   * arrive, never blanked meanwhile. Pages that arrived before the refresh began are dropped
   * (fetched again when they scroll back into view); those fetched while it ran are kept, and
   * what ensure has in flight goes on. A newer refresh or a reset supersedes it.
   */
  async refresh(pages: number[]): Promise<void> {
    const gen = this.gen;
    const mine = ++this.refreshes;
    const began = this.clock;
    try {
      const got = await Promise.all(pages.map(async (p) => [p, await this.fetch(p * this.size, this.size)] as const));
      if (gen !== this.gen || mine !== this.refreshes) return;
      for (const [p, at] of this.arrived) {
        if (at <= began) {
          this.pages.delete(p);
          this.arrived.delete(p);
        }
      }
      for (const [p, page] of got) this.store(p, page);
      if (got.length === 0 && this.pages.size === 0) this.total = -1;
      this.changed();
    } catch (e) {
      if (gen === this.gen && mine === this.refreshes) this.failed(e);
    }
  }

  /** The index of the first row for which pred holds, among the rows that have arrived. */
  findLoaded(pred: (row: T) => boolean): number {
    for (const [p, rows] of this.pages) {
      const i = rows.findIndex(pred);
      if (i >= 0) return p * this.size + i;
    }
    return -1;
  }
}
