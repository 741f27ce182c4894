// The files being sent to Strata and what became of them (drop zone list), shared so that
// drops from the OS (desktop "dropped" events) and uploads land in one place.
//
// Registration answers at once, analysis later: an item whose analysis is still queued is
// followed (follow(), run on every status change) until it is analysed, failed, empty or a
// duplicate, and a failure found then is announced as loudly as the "added" was — the batch's
// toast is replaced by one that says "failed" with the reason (issue 12 §2).

import { api, fileToBase64 } from './api';
import { codes } from './codes.svelte';
import { toApiError } from './errors';
import { baseName } from './format';
import { hasFailure, isPending, itemFromDocument, itemFromResult, summarize, summaryText, type IngestItem } from './ingest';
import { href } from './route';
import { toasts } from './toast.svelte';
import type { PathResult } from './types';

let seq = 0;

/** How many of the newest items are followed: the ones the list shows. */
const followMax = 12;

class Activity {
  items = $state<IngestItem[]>([]);
  /** Uploads in flight or waiting. */
  busy = $state(0);
  /** Documents (by ID, and by path for a file refused before it had one) whose failure a
   * toast already announced: the failure notice skips them. */
  readonly announced = new Set<string>();

  /** The toast that announced an item's batch, replaced when the item turns out to fail. */
  private toastOf = new Map<string, number>();
  private following = false;

  private add(items: IngestItem[]) {
    this.items = [...items, ...this.items].slice(0, 200);
  }

  private update(key: string, patch: Partial<IngestItem>) {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
  }

  clear() {
    this.items = this.items.filter((i) => i.state === 'uploading' || i.state === 'waiting');
  }

  /**
   * Announces a finished batch: an error toast when anything failed, naming the first. The
   * items are read as they stand now: a follow() that ran during an upload may already know
   * that one failed, and the batch must not then be announced as "added".
   */
  private announce(what: string, batch: IngestItem[]) {
    const list = batch.map((b) => this.items.find((i) => i.key === b.key) ?? b);
    const s = summarize(list);
    const text = `${what}: ${summaryText(s)}`;
    let id: number;
    if (hasFailure(s)) {
      const first = list.find((i) => i.state === 'failed' || i.state === 'unsupported');
      id = toasts.push({ kind: 'error', title: text, body: first ? `${first.name}: ${first.message}` : undefined, hint: first?.hint });
      for (const i of list) {
        if (i.state !== 'failed' && i.state !== 'unsupported') continue;
        if (i.documentId) this.announced.add(i.documentId);
        if (i.path) this.announced.add(i.path);
      }
    } else {
      id = toasts.success(text, list.some((i) => i.state === 'queued') ? 'being analysed — failures will show here' : undefined);
    }
    for (const i of list) this.toastOf.set(i.key, id);
  }

  /** Records results from IngestPaths / PickFiles / AddWatchedFolder / a desktop drop. */
  results(results: PathResult[] | null | undefined, what = 'Files') {
    const list = (results ?? []).map((r) => itemFromResult(r, `r${++seq}`, codes.table));
    if (list.length === 0) return;
    this.add(list);
    this.announce(what, list);
  }

  /**
   * Looks again at the newest items still waiting for their analysis and updates them; a
   * failure replaces the batch's toast with one that says so. One pass at a time: a status
   * change during a pass is caught by the next one.
   */
  async follow() {
    if (this.following) return;
    const pending = this.items.slice(0, followMax).filter(isPending);
    if (pending.length === 0) return;
    this.following = true;
    try {
      await codes.load();
      for (const item of pending) {
        try {
          await this.followOne(item);
        } catch (e) {
          // A document that no longer exists is not waiting any more; anything else is tried
          // again on the next status change.
          const err = toApiError(e);
          if (err.code === 'DOCUMENT_NOT_FOUND') this.update(item.key, { state: 'failed', message: `failed — ${err.message}`, hint: err.hint });
        }
      }
    } finally {
      this.following = false;
    }
  }

  private async followOne(item: IngestItem) {
    let original: string | undefined;
    let dupOf = item.duplicateOf;
    let next: IngestItem | null = null;
    if (item.state === 'queued') {
      const d = await api.document(item.documentId!);
      next = itemFromDocument({ key: item.key, name: item.name, path: item.path }, d, codes.table);
      dupOf = next.duplicateOf;
    }
    if (dupOf) {
      const o = await api.document(dupOf);
      original = o.path ? baseName(o.path) : o.title;
      next = { ...(next ?? item), message: `same content as ${original}, not read again`, duplicateOf: undefined };
    }
    if (!next) return;
    this.update(item.key, next);
    if ((next.state === 'failed' || next.state === 'unsupported') && next.documentId && !this.announced.has(next.documentId)) {
      this.announced.add(next.documentId);
      const old = this.toastOf.get(item.key);
      if (old !== undefined) toasts.dismiss(old);
      toasts.push({ kind: 'error', title: `${item.name}: ${next.state === 'unsupported' ? 'not supported' : 'failed'}`, body: next.message.replace(/^(failed|not supported) — /, ''), hint: next.hint, link: { href: href.document(next.documentId), label: 'Open the document' } });
    }
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
          const item = res && res[0] ? { ...itemFromResult(res[0], key, codes.table), name: file.name } : { key, name: file.name, state: 'queued' as const, message: 'added — being analysed' };
          this.update(key, item);
          done.push(item);
        } catch (e) {
          const err = toApiError(e);
          const item = { key, name: file.name, state: 'failed' as const, message: `failed — ${err.message}`, hint: err.hint };
          this.update(key, item);
          done.push(item);
        } finally {
          this.busy--;
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    this.announce('Upload', done);
    void this.follow();
  }
}

export const activity = new Activity();
