// The error registry's table (App.ErrorCodes), loaded once: which codes a Retry can help. The UI
// asks Go rather than keeping its own list, so a code that becomes retryable needs no UI change.

import { api } from './api';
import type { RetryTable } from './outcome';

class Codes {
  table = $state<RetryTable>(null);
  private loading = false;

  /** Loads the table (once; a failed load is tried again on the next call). */
  async load() {
    if (this.table || this.loading) return;
    this.loading = true;
    try {
      const list = await api.errorCodes();
      this.table = new Map((list ?? []).map((c) => [c.code, c.retryable]));
    } catch {
      // Without the table no Retry is offered (canRetry); the next screen that asks loads again.
    } finally {
      this.loading = false;
    }
  }
}

export const codes = new Codes();
