import { describe, expect, it } from 'vitest';
import { isPending, itemFromDocument, itemFromResult } from './ingest';
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
  changed_at: '',
  can_retry: true,
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
    expect(it).toMatchObject({ state: 'unsupported', message: 'not supported — not a format', hint: 'Strata reads …' });
    const bad = itemFromResult({ path: '/a/x.md', error: { code: 'FILE_UNREADABLE', message: 'cannot read' } });
    expect(bad).toMatchObject({ state: 'failed', message: 'failed — cannot read' });
  });
  it('a document registered as failed', () => {
    const it = itemFromResult({
      path: '/a/blob.bin',
      document: doc({ status: 'failed', last_error: { error: { code: 'UNSUPPORTED_FILE_TYPE', message: 'no', hint: 'h' } } }),
    });
    expect(it).toMatchObject({ state: 'unsupported', hint: 'h', documentId: 'doc_1' });
  });
  it('a first import of two copies: a duplicate, not "already there"', () => {
    const it = itemFromResult({ path: '/a/b.md', result: result({ created: false }), document: doc({ status: 'analyzed', phase_analyze: 'skipped', duplicate_of: 'doc_0', size: 5 }) });
    expect(it).toMatchObject({ state: 'duplicate', message: 'same content as another document, not read again', duplicateOf: 'doc_0' });
    expect(isPending(it)).toBe(true); // followed until the original's name is known
  });
  it('an empty file', () => {
    const it = itemFromResult({ path: '/a/e.txt', result: result({ created: true }), document: doc({ status: 'analyzed', phase_analyze: 'skipped', size: 0 }) });
    expect(it).toMatchObject({ state: 'empty', message: 'empty — nothing to index' });
  });
  it('a queued file that later fails becomes "failed" with the reason', () => {
    const first = itemFromResult({ path: '/a/garbage.pdf', result: result({ created: true }), document: doc({ size: 5000 }) }, 'k1');
    expect(first.state).toBe('queued');
    expect(isPending(first)).toBe(true);
    const later = itemFromDocument(
      { key: 'k1', name: 'garbage.pdf' },
      doc({ status: 'failed', phase_analyze: 'failed', size: 5000, last_error: { error: { code: 'ANALYSIS_FAILED', message: 'garbage.pdf: the PDF is truncated', hint: 'download it again' } } }),
      null,
    );
    expect(later).toMatchObject({ state: 'failed', message: 'failed — garbage.pdf: the PDF is truncated', hint: 'download it again', documentId: 'doc_1' });
    expect(isPending(later)).toBe(false);
  });
  it('a finished file', () => {
    expect(itemFromResult({ path: 'x.md', result: result({ created: true }) }).state).toBe('added');
  });
});
