// What happened to each file sent to Strata, for the drop zone's list (tested in ingest.test.ts).
// A file is not "added" until its analysis says so: an item whose analysis is still queued is
// followed (activity.svelte.ts) and turns into "failed", "empty" or "duplicate" when that is
// what really happened.

import type { Document, PathResult } from './types';
import { baseName } from './format';
import { docOutcome, unsupportedCode, type RetryTable } from './outcome';

export type ItemState = 'waiting' | 'uploading' | 'added' | 'unchanged' | 'failed' | 'unsupported' | 'empty' | 'duplicate' | 'queued';

export interface IngestItem {
  key: string;
  name: string;
  path?: string;
  state: ItemState;
  message: string;
  hint?: string;
  documentId?: string;
  /** The document a duplicate repeats, until its name is known. */
  duplicateOf?: string;
}

/** The list's words for a failure: "failed: <message>" or "not supported: <message>". */
function failedItem(base: Pick<IngestItem, 'key' | 'name' | 'path' | 'documentId'>, code: string, message: string, hint?: string): IngestItem {
  if (code === unsupportedCode) return { ...base, state: 'unsupported', message: `not supported — ${message}`, hint };
  return { ...base, state: 'failed', message: `failed — ${message}`, hint };
}

/** The item for a document as it stands now (after registration, or when followed later). */
export function itemFromDocument(base: Pick<IngestItem, 'key' | 'name' | 'path'>, doc: Document, table: RetryTable, originalName?: string): IngestItem {
  const b = { ...base, documentId: doc.document_id };
  const o = docOutcome(doc, table, originalName);
  switch (o.kind) {
    case 'failed':
    case 'unsupported':
      return failedItem(b, o.error?.code ?? '', o.error?.message ?? o.reason, o.hint);
    case 'working':
      return { ...b, state: 'queued', message: o.reason };
    case 'duplicate':
      return { ...b, state: 'duplicate', message: o.reason, duplicateOf: originalName ? undefined : doc.duplicate_of };
    case 'empty':
      return { ...b, state: 'empty', message: o.reason };
    case 'removed':
      return { ...b, state: 'failed', message: o.reason };
    default:
      return { ...b, state: 'added', message: 'added and analysed' };
  }
}

/** One PathResult as a list item. */
export function itemFromResult(r: PathResult, key = r.path, table: RetryTable = null): IngestItem {
  const name = baseName(r.path) || r.path;
  const base = { key, name, path: r.path };
  if (r.error) {
    return failedItem({ ...base, documentId: r.document?.document_id }, r.error.code, r.error.message, r.error.hint);
  }
  const doc = r.document;
  if (r.result && r.result.created === false && !doc?.duplicate_of && doc?.status !== 'failed') {
    const moved = r.result.message?.startsWith('Moved:');
    return { ...base, state: 'unchanged', message: moved ? r.result.message : 'already in Strata — nothing changed', documentId: doc?.document_id ?? r.result.document_id };
  }
  if (doc) return itemFromDocument(base, doc, table);
  // No document came back: follow it by its ID when there is one, to learn what became of it.
  const id = r.result?.document_id;
  return id ? { ...base, state: 'queued', message: 'added — being analysed', documentId: id } : { ...base, state: 'added', message: 'added' };
}

/** Whether an item still waits for its analysis (the activity follows it). */
export function isPending(i: Pick<IngestItem, 'state' | 'documentId' | 'duplicateOf'>): boolean {
  return !!i.documentId && (i.state === 'queued' || (i.state === 'duplicate' && !!i.duplicateOf));
}
