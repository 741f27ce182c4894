// Where a person left the Search screen: the answer on screen, the results whose other passages
// were open, and how far down the page was. Opening a result and coming Back shows the same
// page at the same place, as the Library does, instead of searching again from the top.

import type { SearchResponse } from './types';

export interface SearchSpot {
  /** The request the page showed (searchKey), so only the same search is restored. */
  key: string;
  response: SearchResponse;
  answered: string;
  expanded: Record<string, boolean>;
  scrollTop: number;
}

let spot: SearchSpot | null = null;

/** The key of a search request: the same words, mode and filters give the same key. */
export function searchKey(r: object): string {
  return JSON.stringify(r);
}

export function rememberSearch(s: SearchSpot): void {
  spot = s;
}

/** The spot left on the search of key, if that is the last one remembered. */
export function recallSearch(key: string): SearchSpot | null {
  return spot && spot.key === key ? spot : null;
}
