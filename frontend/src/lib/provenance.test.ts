import { describe, expect, it } from 'vitest';
import { addedBy, dayText, provenanceSentence, readerName } from './provenance';

const now = new Date('2026-11-24T09:00:00Z');

const prov = (patch: { span?: unknown; extractor?: string; path?: string; kind?: string; doc?: boolean }) => ({
  source_observation: {
    id: 'obs_1',
    source_payload_id: 'p',
    source_record_id: 'p',
    extractor: patch.extractor ?? 'file:analyze',
    observed_at: '2026-03-12T10:00:00Z',
    specificity_score: 0.5,
    source_priority: 10,
    span: (patch.span ?? null) as never,
  },
  source_payload: { payload_id: 'p', payload_content_id: 'c', kind: patch.kind ?? 'file', origin: { source: 'app' }, created_at: '' },
  source_document: patch.doc === false ? undefined : { document_id: 'doc_1', kind: 'file', path: patch.path ?? '/d/invoice-042.pdf', title: 'Invoice' },
});

describe('provenanceSentence', () => {
  it('says file, page, line, reader and day in plain words', () => {
    expect(provenanceSentence(prov({ span: { page: 2, line: 14 } }), now)).toBe('from invoice-042.pdf, page 2, line 14, read by the PDF reader on 12 March');
  });
  it('names the reader by the file and leaves out what is not known', () => {
    expect(provenanceSentence(prov({ path: '/d/notes.md' }), now)).toBe('from notes.md, read by the Markdown reader on 12 March');
    expect(provenanceSentence(prov({ extractor: 'file:register' }), now)).toBe('from invoice-042.pdf, recorded when the file was added on 12 March');
  });
  it('a note without a file', () => {
    expect(provenanceSentence(prov({ doc: false, kind: 'content', extractor: 'strata-ingest/auto' }), now)).toBe('from a note, given by strata-ingest/auto on 12 March');
  });
});

describe('parts', () => {
  it('readers, doors and days', () => {
    expect(readerName('/x/a.HTML')).toBe('the HTML reader');
    expect(readerName('/x/Makefile')).toBe('the text reader');
    expect(addedBy({ source: 'app' })).toBe('added in the Strata app');
    expect(addedBy({ source: 'mcp:cursor' })).toBe('added by the AI client cursor');
    expect(addedBy({ source: 'cli' })).toBe('added from the command line');
    expect(addedBy(null)).toBe('');
    expect(dayText('2025-03-12T00:00:00Z', now)).toBe('12 March 2025');
    expect(dayText('nonsense', now)).toBe('');
  });
});
