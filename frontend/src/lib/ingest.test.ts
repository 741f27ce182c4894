import { describe, expect, it } from 'vitest';
import { itemFromResult, summarize, summaryText } from './ingest';
import type { Document, IngestResult, PathResult } from './types';

const doc = (patch: Partial<Document>): Document => ({
  document_id: 'doc_1',
  kind: 'file',
  title: 't',
  mime: '',
  size: 0,
  content_hash: '',
  status: 'registered',
  phase_register: 'done',
  phase_analyze: 'queued',
  phase_semantic: 'pending',
  created_at: '',
  updated_at: '',
  ...patch,
});

// An ingest result with every field the Go struct always sends; tests set what they need.
const result = (patch: Partial<IngestResult>): IngestResult => ({
  input_kind: 'extract-file',
  payload_id: 'pay_1',
  payload_content_id: 'pcid_1',
  payload_submission_id: 'psub_1',
  created: true,
  message: '',
  entity_ids: [],
  entities: [],
  relationship_ids: [],
  ...patch,
});

describe('itemFromResult', () => {
  it('a new file being analysed', () => {
    const r: PathResult = { path: '/a/notes.md', result: result({ created: true }), document: doc({}) };
    expect(itemFromResult(r)).toMatchObject({ name: 'notes.md', state: 'queued', documentId: 'doc_1' });
  });
  it('a file already there', () => {
    expect(itemFromResult({ path: '/a/x.md', result: result({ created: false }), document: doc({ phase_analyze: 'done' }) }).state).toBe('unchanged');
  });
  it('an error', () => {
    const it = itemFromResult({ path: '/a/x.bin', error: { code: 'UNSUPPORTED_FILE_TYPE', message: 'not a format', hint: 'Strata reads …' } });
    expect(it).toMatchObject({ state: 'failed', message: 'UNSUPPORTED_FILE_TYPE: not a format', hint: 'Strata reads …' });
  });
  it('a document registered as failed', () => {
    const it = itemFromResult({
      path: '/a/blob.bin',
      document: doc({ status: 'failed', last_error: { error: { code: 'UNSUPPORTED_FILE_TYPE', message: 'no', hint: 'h' } } }),
    });
    expect(it).toMatchObject({ state: 'failed', hint: 'h', documentId: 'doc_1' });
  });
  it('a finished file', () => {
    expect(itemFromResult({ path: 'x.md', result: result({ created: true }) }).state).toBe('added');
  });
});

describe('summaries', () => {
  it('counts and words', () => {
    const s = summarize([{ state: 'added' }, { state: 'queued' }, { state: 'failed' }, { state: 'unchanged' }, { state: 'uploading' }]);
    expect(s).toEqual({ total: 5, added: 2, unchanged: 1, failed: 1 });
    expect(summaryText(s)).toBe('2 added, 1 already there, 1 failed');
    expect(summaryText(summarize([]))).toBe('nothing to add');
  });
});
