// What happened to each file sent to Strata, for the drop zone's list (tested in ingest.test.ts).

import type { PathResult } from './types';
import { baseName } from './format';

export type ItemState = 'waiting' | 'uploading' | 'added' | 'unchanged' | 'failed' | 'queued';

export interface IngestItem {
  key: string;
  name: string;
  path?: string;
  state: ItemState;
  message: string;
  hint?: string;
  documentId?: string;
}

/** One PathResult as a list item. */
export function itemFromResult(r: PathResult, key = r.path): IngestItem {
  const name = baseName(r.path) || r.path;
  if (r.error) {
    return { key, name, path: r.path, state: 'failed', message: `${r.error.code}: ${r.error.message}`, hint: r.error.hint, documentId: r.document?.document_id };
  }
  const doc = r.document;
  const docId = doc?.document_id ?? r.result?.document_id;
  if (doc && doc.status === 'failed') {
    const err = doc.last_error?.error;
    return {
      key,
      name,
      path: r.path,
      state: 'failed',
      message: err ? `${err.code}: ${err.message}` : 'could not be read',
      hint: err?.hint,
      documentId: docId,
    };
  }
  if (r.result && r.result.created === false) {
    return { key, name, path: r.path, state: 'unchanged', message: 'already in Strata — nothing changed', documentId: docId };
  }
  const queued = doc && (doc.phase_analyze === 'queued' || doc.phase_analyze === 'running');
  return {
    key,
    name,
    path: r.path,
    state: queued ? 'queued' : 'added',
    message: queued ? 'added — being analysed' : 'added',
    documentId: docId,
  };
}

export interface ResultSummary {
  total: number;
  added: number;
  unchanged: number;
  failed: number;
}

/** Counts results for a toast ("3 added, 1 failed"). */
export function summarize(items: Pick<IngestItem, 'state'>[]): ResultSummary {
  const s = { total: items.length, added: 0, unchanged: 0, failed: 0 };
  for (const i of items) {
    if (i.state === 'failed') s.failed++;
    else if (i.state === 'unchanged') s.unchanged++;
    else if (i.state === 'added' || i.state === 'queued') s.added++;
  }
  return s;
}

export function summaryText(s: ResultSummary): string {
  const parts: string[] = [];
  if (s.added) parts.push(`${s.added} added`);
  if (s.unchanged) parts.push(`${s.unchanged} already there`);
  if (s.failed) parts.push(`${s.failed} failed`);
  return parts.join(', ') || 'nothing to add';
}
