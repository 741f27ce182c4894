import { describe, expect, it } from 'vitest';
import {
  baseName,
  citation,
  dirName,
  formatBytes,
  formatValue,
  humanize,
  isComplexValue,
  lineRange,
  observationLabel,
  plural,
  relativeTime,
  shortPath,
} from './format';

describe('citation', () => {
  it('cites path:line for text files', () => {
    expect(citation({ path: '/tmp/ui-src/invoice.md', line_start: 1, line_end: 8 })).toBe('/tmp/ui-src/invoice.md:1');
    // A search result cites the line of the words its snippet shows, inside its passage.
    expect(citation({ path: '/tmp/ui-src/invoice.md', line_start: 1, line_end: 8, line: 6 })).toBe('/tmp/ui-src/invoice.md:6');
  });
  it('cites the page for PDFs', () => {
    expect(citation({ path: '/docs/a.pdf', line_start: 40, page: 3 })).toBe('/docs/a.pdf p. 3');
    expect(citation({ page: 7, line_start: 2 })).toBe('p. 7');
  });
  it('cites the line alone for notes without a path, then the title', () => {
    expect(citation({ title: 'Q3 review', line_start: 1 })).toBe('line 1');
    expect(citation({ title: 'Q3 review' })).toBe('Q3 review');
    expect(citation({ path: '/x/y.txt' })).toBe('/x/y.txt');
    expect(citation({ path: '/x/y.txt', page: 0, line_start: 0 })).toBe('/x/y.txt');
  });
});

describe('paths and sizes', () => {
  it('lineRange', () => {
    expect(lineRange(4, 9)).toBe('lines 4–9');
    expect(lineRange(4, 4)).toBe('line 4');
    expect(lineRange(0, 0)).toBe('');
  });
  it('baseName and dirName', () => {
    expect(baseName('/a/b/c.md')).toBe('c.md');
    expect(baseName('C:\\x\\y.pdf')).toBe('y.pdf');
    expect(baseName('/a/b/')).toBe('b');
    expect(dirName('/a/b/c.md')).toBe('/a/b');
    expect(dirName('/c.md')).toBe('/');
    expect(dirName('c.md')).toBe('');
  });
  it('formatBytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MB');
    expect(formatBytes(undefined)).toBe('');
    expect(formatBytes(-1)).toBe('');
  });
});

describe('times and values', () => {
  const now = new Date('2025-01-15T12:00:00Z');
  it('relativeTime', () => {
    expect(relativeTime('2025-01-15T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2025-01-15T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2025-01-15T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2025-01-14T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2025-01-10T12:00:00Z', now)).toBe('5 days ago');
    expect(relativeTime('2024-06-01T12:00:00Z', now)).toMatch(/^2024-06-0[12]$/);
    expect(relativeTime('garbage', now)).toBe('garbage');
    expect(relativeTime('', now)).toBe('');
  });
  it('formatValue and isComplexValue', () => {
    expect(formatValue('x')).toBe('x');
    expect(formatValue(1600)).toBe('1600');
    expect(formatValue(null)).toBe('—');
    expect(formatValue(['a', 'b'])).toBe('["a","b"]');
    expect(isComplexValue([{ a: 1 }])).toBe(true);
    expect(isComplexValue(['a'])).toBe(false);
    expect(isComplexValue({ a: 1 })).toBe(true);
    expect(isComplexValue('short')).toBe(false);
    expect(isComplexValue('two\nlines')).toBe(true);
  });
  it('observationLabel picks a name-like field', () => {
    expect(observationLabel({ email: 'billing@acme.example' })).toBe('billing@acme.example');
    expect(observationLabel({ name: 'finance', email: 'x@y' })).toBe('finance');
    expect(observationLabel({ amount: 3, vendor: 'Acme' })).toBe('Acme');
    expect(observationLabel({ amount: 3 }, 'ent_1')).toBe('ent_1');
    expect(observationLabel(null, 'fallback')).toBe('fallback');
  });
  it('humanize and plural', () => {
    expect(humanize('meeting-notes')).toBe('Meeting notes');
    expect(humanize('line_item')).toBe('Line item');
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(1200, 'entity', 'entities')).toBe('1,200 entities');
  });
});

describe('shortPath', () => {
  it('names a file with its folder, so that files of one name are told apart', () => {
    expect(shortPath('/usr/share/doc/libfoo/copyright')).toBe('libfoo/copyright');
    expect(shortPath('C:\\Docs\\libfoo\\copyright')).toBe('libfoo/copyright');
    expect(shortPath('/copyright')).toBe('copyright');
    expect(shortPath('notes.md')).toBe('notes.md');
  });
});
