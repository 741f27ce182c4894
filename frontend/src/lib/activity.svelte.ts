// The files being sent to Strata and what became of them (drop zone list), shared so that
// drops from the OS (desktop "dropped" events) and uploads land in one place.

import { api, fileToBase64 } from './api';
import { toApiError } from './errors';
import { itemFromResult, summarize, summaryText, type IngestItem } from './ingest';
import { toasts } from './toast.svelte';
import type { PathResult } from './types';

let seq = 0;

class Activity {
  items = $state<IngestItem[]>([]);
  /** Uploads in flight or waiting. */
  busy = $state(0);

  private add(items: IngestItem[]) {
    this.items = [...items, ...this.items].slice(0, 200);
  }

  private update(key: string, patch: Partial<IngestItem>) {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
  }

  clear() {
    this.items = this.items.filter((i) => i.state === 'uploading' || i.state === 'waiting');
  }

  /** Records results from IngestPaths / PickFiles / AddWatchedFolder / a desktop drop. */
  results(results: PathResult[] | null | undefined, what = 'Files') {
    const list = (results ?? []).map((r) => itemFromResult(r, `r${++seq}`));
    if (list.length === 0) return;
    this.add(list);
    const s = summarize(list);
    const text = summaryText(s);
    if (s.failed) toasts.push({ kind: 'error', title: `${what}: ${text}`, body: list.find((i) => i.state === 'failed')?.message, hint: list.find((i) => i.hint)?.hint });
    else toasts.success(`${what}: ${text}`);
  }

  /** Uploads browser files (three at a time), each with its own state in the list. */
  async upload(files: File[]) {
    if (files.length === 0) return;
    const entries = files.map((f) => ({ file: f, key: `u${++seq}` }));
    this.add(entries.map(({ file, key }) => ({ key, name: file.name, state: 'waiting' as const, message: 'waiting' })));
    this.busy += entries.length;
    const done: IngestItem[] = [];
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const { file, key } = entries[next++];
        this.update(key, { state: 'uploading', message: 'uploading…' });
        try {
          const b64 = await fileToBase64(file);
          const res = await api.upload(file.name, b64);
          const item = res && res[0] ? { ...itemFromResult(res[0], key), name: file.name } : { key, name: file.name, state: 'added' as const, message: 'added' };
          this.update(key, item);
          done.push(item);
        } catch (e) {
          const err = toApiError(e);
          const item = { key, name: file.name, state: 'failed' as const, message: `${err.code}: ${err.message}`, hint: err.hint };
          this.update(key, item);
          done.push(item);
        } finally {
          this.busy--;
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    const s = summarize(done);
    if (s.failed) toasts.push({ kind: 'error', title: `Upload: ${summaryText(s)}`, body: done.find((i) => i.state === 'failed')?.message, hint: done.find((i) => i.hint)?.hint });
    else toasts.success(`Upload: ${summaryText(s)}`);
  }
}

export const activity = new Activity();
