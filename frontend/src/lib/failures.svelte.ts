// The failure notice and the sidebar's count (rules in failures.ts). A failure count that goes
// up raises a toast naming the newest failed documents (App.Documents, status failed, newest
// first), except those the drop zone's list already announced.

import { activity } from './activity.svelte';
import { api } from './api';
import { baseName } from './format';
import { failedCount, newFailures, noticeBody, noticeTitle, unseenFailures } from './failures';
import { href } from './route';
import { toasts } from './toast.svelte';
import type { Status } from './types';

const seenKey = 'strata.failures.seen';

/** How long the failures notice stays after its last news. */
const noticeMs = 9000;

function readSeen(): number {
  try {
    return Number(localStorage.getItem(seenKey) ?? '0') || 0;
  } catch {
    return 0; // no storage (private mode): every failure counts as unseen, which is the safe side
  }
}

class Failures {
  count = $state(0);
  seen = $state(readSeen());
  unseen = $derived(unseenFailures(this.count, this.seen));

  private prev: number | null = null;

  /**
   * Takes a new status: counts failures and announces new ones. When the newest failures cannot
   * be fetched it rejects and keeps the previous count, so the next status announces them.
   */
  async check(s: Status | null) {
    if (!s) return;
    const now = failedCount(s.counts);
    this.count = now;
    if (this.seen > now) this.markSeen(now);
    const added = newFailures(this.prev, now);
    if (added === 0) {
      this.prev = now;
      return;
    }
    const page = await api.documents({ status: 'failed', recent: true, limit: Math.min(added, 20) });
    this.prev = now;
    const told = (d: { document_id: string; path?: string }) => activity.announced.has(d.document_id) || (!!d.path && activity.announced.has(d.path));
    const fresh = page.documents.filter((d) => !told(d));
    if (fresh.length === 0) return;
    for (const d of fresh) activity.announced.add(d.document_id);
    const names = fresh.map((d) => (d.path ? baseName(d.path) : d.title));
    // Failures that keep arriving (one import's files, read a batch at a time) are one notice,
    // counted up while it is shown, not a stack of them.
    if (this.toast !== null && toasts.shown(this.toast)) {
      this.names = [...names, ...this.names];
      this.told += fresh.length;
      toasts.update(this.toast, { title: noticeTitle(this.names, this.told), body: noticeBody(this.names, this.told) || undefined }, noticeMs);
      return;
    }
    this.names = names;
    this.told = fresh.length;
    this.toast = toasts.push(
      {
        kind: 'error',
        title: noticeTitle(names, fresh.length),
        body: noticeBody(names, fresh.length) || undefined,
        link: { href: href.library({ status: 'failed' }), label: 'Show failed documents' },
      },
      noticeMs,
    );
  }

  private toast: number | null = null;
  private names: string[] = [];
  private told = 0;

  /** The person looked at the failures (the library filtered to them). */
  markSeen(n = this.count) {
    this.seen = n;
    try {
      localStorage.setItem(seenKey, String(n));
    } catch {
      // Without storage the count is remembered for this session only.
    }
  }
}

export const failures = new Failures();
