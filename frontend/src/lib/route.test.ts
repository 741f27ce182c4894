import { describe, expect, it } from 'vitest';
import { buildHash, href, parseHash } from './route';

describe('parseHash', () => {
  it('defaults to the library', () => {
    expect(parseHash('')).toEqual({ name: 'library', id: '', query: {} });
    expect(parseHash('#')).toEqual({ name: 'library', id: '', query: {} });
    expect(parseHash('#/')).toEqual({ name: 'library', id: '', query: {} });
  });
  it('reads simple screens with their query', () => {
    expect(parseHash('#/library?status=failed&type=invoice')).toEqual({ name: 'library', id: '', query: { status: 'failed', type: 'invoice' } });
    expect(parseHash('#/search?q=heron%20colony&mode=keyword')).toEqual({ name: 'search', id: '', query: { q: 'heron colony', mode: 'keyword' } });
    expect(parseHash('#/search?q=a+b').query.q).toBe('a b');
    expect(parseHash('#/settings').name).toBe('settings');
    expect(parseHash('#/entities?type=person').query.type).toBe('person');
  });
  it('reads documents and entities with their IDs', () => {
    expect(parseHash('#/document/doc_1?chunk=chk_2')).toEqual({ name: 'document', id: 'doc_1', query: { chunk: 'chk_2' } });
    expect(parseHash('#/entity/ent_9?at=2025-01-16')).toEqual({ name: 'entity', id: 'ent_9', query: { at: '2025-01-16' } });
    expect(parseHash('#/document/a%2Fb').id).toBe('a/b');
  });
  it('anything else is not found', () => {
    expect(parseHash('#/document').name).toBe('notfound');
    expect(parseHash('#/entity/a/b').name).toBe('notfound');
    expect(parseHash('#/nope').name).toBe('notfound');
    expect(parseHash('#/settings/x').name).toBe('notfound');
    expect(parseHash('#/document/%E0%A4%A').id).toBe('%E0%A4%A'); // undecodable stays as typed
  });
});

describe('buildHash and href', () => {
  it('round-trips', () => {
    for (const h of [
      buildHash('search', '', { q: 'acme & co', mode: 'semantic' }),
      buildHash('document', 'doc_1', { chunk: 'chk_2', line: 12 }),
      buildHash('entity', 'ent/odd', { at: '2025-01-15' }),
      buildHash('library', '', { status: 'failed', path: '/home/me/Docs' }),
    ]) {
      const r = parseHash(h);
      expect(r.name).not.toBe('notfound');
      expect(buildHash(r.name as never, r.id, r.query)).toBe(h);
    }
  });
  it('leaves empty values out', () => {
    expect(buildHash('library', '', { type: '', status: undefined, page: null })).toBe('#/library');
    expect(href.search('', 'hybrid')).toBe('#/search');
    expect(href.search('x', 'hybrid')).toBe('#/search?q=x');
    expect(href.search('x', 'keyword')).toBe('#/search?q=x&mode=keyword');
    expect(href.entity('ent_1')).toBe('#/entity/ent_1');
    expect(href.document('doc_1', { line: 5 })).toBe('#/document/doc_1?line=5');
    expect(href.suggestions()).toBe('#/suggestions');
    expect(href.suggestions('open')).toBe('#/suggestions');
    expect(href.suggestions('dismissed')).toBe('#/suggestions?state=dismissed');
    expect(href.search('heron nests', '', true)).toBe('#/search?q=heron+nests&ask=1');
    expect(href.health()).toBe('#/health');
    expect(href.health('orphan')).toBe('#/health?kind=orphan');
    expect(href.health('stale', 1)).toBe('#/health?kind=stale');
    expect(href.health('stale', 3)).toBe('#/health?kind=stale&page=3');
    expect(parseHash('#/health?kind=missing_link&page=2')).toEqual({ name: 'health', id: '', query: { kind: 'missing_link', page: '2' } });
    expect(parseHash('#/suggestions?state=dismissed')).toEqual({ name: 'suggestions', id: '', query: { state: 'dismissed' } });
  });
});
