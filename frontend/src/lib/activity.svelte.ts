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
import { shortPath } from './format';
import { isPending, itemFromDocument, itemFromResult, type IngestItem } from './ingest';
import { addSummaries, emptySummary, failureReasons } from './progress';
import { href } from './route';
import { toasts } from './toast.svelte';
import type { Import, ImportSummary, Status } from './types';

let seq = 0;

/** How many of the newest items are followed: the ones the list shows. */
const followMax = 12;

/**
 * One import as the Recently added box shows it: the engine's counts (one summary per call; a
 * batch of uploads has one per file), followed through Status.imports until every file is read.
 */
export interface FollowedImport {
  key: string;
  /** "Folder", "Files", "Dropped", "Upload". */
  what: string;
  summaries: ImportSummary[];
  summary: ImportSummary;
  /** The toast that announced it, replaced by the final one. */
  toast?: number;
}

/** Where "see them" leads: the Library filtered to failed documents of the import's folder. */
export function failuresHref(s: Pick<ImportSummary, 'folder'>): string {
  return href.library({ status: 'failed', ...(s.folder ? { path: s.folder } : {}) });
}

class Activity {
  items = $state<IngestItem[]>([]);
  /** The newest imports (newest first), each with its summary. */
  imports = $state<FollowedImport[]>([]);
  /** Uploads in flight or waiting. */
  busy = $state(0);
  /** Documents (by ID, and by path for a file refused before it had one) whose failure a
   * toast already announced: the failure notice skips them. */
  readonly announced = new Set<string>();

  /** The import an item came in with (its toast is replaced when the item turns out to fail),
   * and how many of each import's failures an item's own toast announced. */
  private importOf = new Map<string, string>();
  private failuresAnnounced = new Map<string, number>();
  private following = false;

  private add(items: IngestItem[]) {
    this.items = [...items, ...this.items].slice(0, 200);
    this.told(items);
  }

  private update(key: string, patch: Partial<IngestItem>) {
    this.items = this.items.map((i) => (i.key === key ? { ...i, ...patch } : i));
  }

  /** Items that failed as soon as they came in (an unsupported file, a refused path) are
   * announced by their import's toast: the failure notice must not announce them again. */
  private told(items: Partial<IngestItem>[]) {
    for (const i of items) {
      if (i.state !== 'failed' && i.state !== 'unsupported') continue;
      if (i.documentId) this.announced.add(i.documentId);
      if (i.path) this.announced.add(i.path);
    }
  }

  clear() {
    this.items = this.items.filter((i) => i.state === 'uploading' || i.state === 'waiting');
    // An import still being read keeps its line; the finished ones go with their files.
    this.keepImports(this.imports.filter((i) => !i.summary.finished));
  }

  /** Keeps imports (and forgets what was kept for the others). */
  private keepImports(imports: FollowedImport[]) {
    this.imports = imports;
    const kept = new Set(imports.map((i) => i.key));
    for (const [item, imp] of this.importOf) if (!kept.has(imp)) this.importOf.delete(item);
    for (const imp of this.failuresAnnounced.keys()) if (!kept.has(imp)) this.failuresAnnounced.delete(imp);
  }

  /**
   * Announces an import in one line: "Folder: 5,000 files: 4,421 added, 579 identical to files
   * already here, 12 failed", an error toast with a link to the failures when any failed. While
   * files are still being read it says so, and the final line replaces it (followImports).
   */
  private announce(fi: FollowedImport) {
    const s = fi.summary;
    const text = `${fi.what}: ${s.line}`;
    if (fi.toast !== undefined) toasts.dismiss(fi.toast);
    if (s.failed > 0) {
      fi.toast = toasts.push({ kind: 'error', title: text, body: failureReasons(s), link: { href: failuresHref(s), label: 'See them' } });
    } else {
      fi.toast = toasts.success(text, s.finished ? undefined : 'being analysed — failures will show here');
    }
  }

  /** Follows an import (or a batch of them: uploads) of the items with keys, and announces it. */
  private track(what: string, list: ImportSummary[], keys: string[]) {
    if (list.length === 0) return;
    const fi: FollowedImport = { key: `i${++seq}`, what, summaries: list, summary: addSummaries(list) };
    for (const k of keys) this.importOf.set(k, fi.key);
    this.announce(fi);
    this.keepImports([fi, ...this.imports].slice(0, 5));
  }

  /**
   * Updates the followed imports from Status.imports; an import whose files are all read now
   * is announced again with its final line (replacing the first toast).
   */
  followImports(status: Status | null | undefined) {
    const byID = new Map((status?.imports ?? []).map((s) => [s.id, s]));
    let changed = false;
    const next = this.imports.map((fi) => {
      if (fi.summary.finished) return fi;
      const summaries = fi.summaries.map((s) => byID.get(s.id) ?? s);
      // Each status brings new objects: an import changed when its line did.
      if (summaries.every((s, i) => s.line === fi.summaries[i].line && s.finished === fi.summaries[i].finished)) return fi;
      changed = true;
      const upd: FollowedImport = { ...fi, summaries, summary: addSummaries(summaries) };
      // The final line gets a toast of its own when the first one could not tell it: a large
      // import, or failures no file's own toast announced. A few files that were read say so
      // in the Recently added box.
      const unannounced = upd.summary.failed - (this.failuresAnnounced.get(fi.key) ?? 0);
      if (upd.summary.finished && (upd.summary.files > followMax || unannounced > 0)) this.announce(upd);
      // A toast still on screen follows the counts, so that it never says "30 being analysed"
      // beside a box that says 6.
      else if (upd.toast !== undefined)
        toasts.update(upd.toast, {
          title: `${upd.what}: ${upd.summary.line}`,
          body: upd.summary.failed > 0 ? failureReasons(upd.summary) : upd.summary.finished ? undefined : 'being analysed — failures will show here',
        });
      return upd;
    });
    if (changed) this.imports = next;
  }

  /** Records an import from IngestPaths / PickFiles / AddWatchedFolder / a desktop drop. */
  results(imp: Import | null | undefined, what = 'Files') {
    if (!imp) return;
    // The list shows the newest 200 files; the summary counts them all.
    const list = (imp.results ?? []).slice(0, 200).map((r) => itemFromResult(r, `r${++seq}`, codes.table));
    this.add(list);
    this.track(
      what,
      [imp.summary],
      list.map((i) => i.key),
    );
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
      original = o.path ? shortPath(o.path) : o.title;
      next = { ...(next ?? item), message: `same content as ${original}, not read again`, duplicateOf: undefined };
    }
    if (!next) return;
    this.update(item.key, next);
    if ((next.state === 'failed' || next.state === 'unsupported') && next.documentId && !this.announced.has(next.documentId)) {
      this.announced.add(next.documentId);
      const fi = this.imports.find((i) => i.key === this.importOf.get(item.key));
      if (fi) {
        if (fi.toast !== undefined) toasts.dismiss(fi.toast);
        this.failuresAnnounced.set(fi.key, (this.failuresAnnounced.get(fi.key) ?? 0) + 1);
      }
      toasts.push({ kind: 'error', title: `${item.name}: ${next.state === 'unsupported' ? 'not supported' : 'failed'}`, body: next.message.replace(/^(failed|not supported) — /, ''), hint: next.hint, link: { href: href.document(next.documentId), label: 'Open the document' } });
    }
  }

  /** Uploads browser files (three at a time), each with its own state in the list. */
  async upload(files: File[]) {
    if (files.length === 0) return;
    const entries = files.map((f) => ({ file: f, key: `u${++seq}` }));
    this.add(entries.map(({ file, key }) => ({ key, name: file.name, state: 'waiting' as const, message: 'waiting' })));
    this.busy += entries.length;
    const summaries: ImportSummary[] = [];
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const { file, key } = entries[next++];
        this.update(key, { state: 'uploading', message: 'uploading…' });
        try {
          const b64 = await fileToBase64(file);
          const imp = await api.upload(file.name, b64);
          const res = imp?.results?.[0];
          const item = res ? { ...itemFromResult(res, key, codes.table), name: file.name } : { key, name: file.name, state: 'queued' as const, message: 'added — being analysed' };
          this.update(key, item);
          this.told([item]);
          if (imp) summaries.push(imp.summary);
        } catch (e) {
          const err = toApiError(e);
          const item = { key, name: file.name, state: 'failed' as const, message: `failed — ${err.message}`, hint: err.hint };
          this.update(key, item);
          // Refused before Strata had it (too large, no connection): counted here, as Go counts a file it could not register.
          summaries.push({ ...emptySummary(), files: 1, failed: 1, failed_by: { [err.code]: 1 } });
        } finally {
          this.busy--;
        }
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    this.track(
      'Upload',
      summaries,
      entries.map((e) => e.key),
    );
    void this.follow();
  }
}

export const activity = new Activity();
