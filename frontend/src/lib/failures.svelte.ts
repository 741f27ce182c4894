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
    toasts.push({
      kind: 'error',
      title: noticeTitle(names, fresh.length),
      body: noticeBody(names, fresh.length) || undefined,
      link: { href: href.library({ status: 'failed' }), label: 'Show failed documents' },
    });
  }

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
