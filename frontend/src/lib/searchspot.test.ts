import { describe, expect, it } from 'vitest';
import { recallSearch, rememberSearch, searchKey } from './searchspot';
import type { SearchResponse } from './types';

describe('searchspot', () => {
  it('gives back the spot of the same search only', () => {
    const response = { results: [] } as unknown as SearchResponse;
    const key = searchKey({ query: 'heron colony', mode: 'hybrid', limit: 30 });
    rememberSearch({ key, response, answered: 'heron colony', expanded: { doc_1: true }, scrollTop: 640 });
    expect(recallSearch(searchKey({ query: 'heron colony', mode: 'hybrid', limit: 30 }))?.scrollTop).toBe(640);
    expect(recallSearch(searchKey({ query: 'heron colony', mode: 'keyword', limit: 30 }))).toBeNull();
    expect(recallSearch(searchKey({ query: 'heron', mode: 'hybrid', limit: 30 }))).toBeNull();
  });
});
