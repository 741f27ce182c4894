import { describe, expect, it } from 'vitest';
import { canRetry, docOutcome, sizeText } from './outcome';
import type { Document } from './types';

const doc = (patch: Partial<Document>): Document => ({
  document_id: 'doc_1',
  kind: 'file',
  title: 't',
  mime: '',
  size: 120,
  content_hash: '',
  status: 'analyzed',
  phase_register: 'done',
  phase_analyze: 'done',
  phase_semantic: 'skipped',
  created_at: '',
  updated_at: '',
  changed_at: '',
  can_retry: true,
  ...patch,
});

const envelope = (code: string, message: string, hint = '') => ({ error: { code, message, hint } });

// The registry's flags as ErrorCodes answers them (a few rows).
const table = new Map([
  ['ANALYSIS_FAILED', false],
  ['UNSUPPORTED_FILE_TYPE', false],
  ['FILE_UNREADABLE', true],
  ['INTERNAL_ERROR', true],
]);

describe('docOutcome', () => {
  it('a corrupt PDF says failed with the reason, and no Retry for a permanent code', () => {
    const o = docOutcome(doc({ status: 'failed', phase_analyze: 'failed', last_error: envelope('ANALYSIS_FAILED', 'garbage.pdf: the PDF is truncated', 'download it again') }), table);
    expect(o).toMatchObject({ kind: 'failed', label: 'failed', reason: 'garbage.pdf: the PDF is truncated', hint: 'download it again', retry: false });
  });
  it('a retryable failure offers Retry', () => {
    const o = docOutcome(doc({ status: 'failed', phase_register: 'failed', last_error: envelope('FILE_UNREADABLE', 'cannot read x') }), table);
    expect(o.retry).toBe(true);
  });
  it('an unsupported file says "not supported" with its real size and no Retry', () => {
    const o = docOutcome(doc({ status: 'failed', phase_register: 'failed', size: 3000, last_error: envelope('UNSUPPORTED_FILE_TYPE', 'prog.bin is not a format Strata reads') }), table);
    expect(o).toMatchObject({ kind: 'unsupported', label: 'not supported', retry: false });
    expect(o.reason).toContain('2.9 KB');
  });
  it('an empty file says so instead of "analyzed"', () => {
    const o = docOutcome(doc({ size: 0, phase_analyze: 'skipped' }), table);
    expect(o).toMatchObject({ kind: 'empty', reason: 'empty — nothing to index' });
  });
  it('a duplicate names its original', () => {
    const o = docOutcome(doc({ duplicate_of: 'doc_0', phase_analyze: 'skipped' }), table, 'a.md');
    expect(o).toMatchObject({ kind: 'duplicate', reason: 'same content as a.md, not read again' });
  });
  it('a document still in the queue is being analysed, not analyzed', () => {
    expect(docOutcome(doc({ status: 'registered', phase_analyze: 'queued' }), table).kind).toBe('working');
  });
  it('a real analysis is analyzed', () => {
    expect(docOutcome(doc({}), table)).toMatchObject({ kind: 'analyzed', label: 'analyzed' });
  });
});

describe('canRetry', () => {
  it('follows the table, and offers nothing before it is known', () => {
    expect(canRetry(null, 'FILE_UNREADABLE')).toBe(false);
    expect(canRetry(table, 'FILE_UNREADABLE')).toBe(true);
    expect(canRetry(table, 'ANALYSIS_FAILED')).toBe(false);
    expect(canRetry(table, 'SOMETHING_NEW')).toBe(true); // as INTERNAL_ERROR
  });
});

describe('sizeText', () => {
  it('never shows "0 B" for a file that could not be opened', () => {
    expect(sizeText(doc({ size: 0, phase_register: 'failed' }))).toBe('');
    expect(sizeText(doc({ size: 0 }))).toBe('0 B');
    expect(sizeText(doc({ size: 3000, phase_register: 'failed' }))).toBe('2.9 KB');
  });
});
