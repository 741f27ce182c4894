// The store's status, kept fresh: pushed by the desktop window ("status" events), polled every
// second in a browser while the tab is visible.

import { api, isDesktop, on } from './api';
import type { Status } from './types';

class StatusStore {
  current = $state<Status | null>(null);
  error = $state<string>('');
  /** Bumped whenever what the store holds changes: screens reload their lists on it. */
  version = $state(0);

  private last = '';
  private lastData = '';
  private timer: ReturnType<typeof setInterval> | undefined;
  private started = false;

  set(s: Status) {
    // Free space changes with every write; it alone is no reason for screens to reload.
    const key = JSON.stringify(s, (k, v) => (k === 'free_bytes' ? undefined : v));
    if (key === this.last) return;
    this.last = key;
    this.current = s;
    this.error = '';
    // Nor are a phase's rate and time left, or an import's line, which move at every poll while
    // work goes on: the progress card and the import lines read `current`; lists reload when
    // the store's counts or jobs change.
    const data = JSON.stringify(s, (k, v) => (k === 'free_bytes' || k === 'progress' || k === 'imports' ? undefined : v));
    if (data === this.lastData) return;
    this.lastData = data;
    this.version++;
  }

  async refresh() {
    try {
      this.set(await api.status());
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  start() {
    if (this.started) return;
    this.started = true;
    void this.refresh();
    if (isDesktop()) {
      on<Status>('status', (s) => s && this.set(s));
      return;
    }
    const poll = () => {
      if (this.timer !== undefined) return;
      this.timer = setInterval(() => void this.refresh(), 1000);
    };
    const stop = () => {
      if (this.timer !== undefined) clearInterval(this.timer);
      this.timer = undefined;
    };
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) stop();
      else {
        void this.refresh();
        poll();
      }
    });
    if (!document.hidden) poll();
  }
}

export const status = new StatusStore();
