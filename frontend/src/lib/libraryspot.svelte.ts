// Where a person left the Library: its address (filters and order) and the row they were on.
// The sidebar's Library link and a document's "← Library" go back to that address, and the
// list scrolls back to that row. The spot is also kept in the history entry (history.state),
// so Back finds it after a reload of the page too.

import { viewKey, type LibraryView } from './library';

/** The row a person was on: its index and document, and how far below the top of the
 * scrolling container its top was, in the list of key (viewKey). */
export interface Spot {
  key: string;
  index: number;
  id: string;
  offset: number;
}

const stateKey = 'strataLibrarySpot';

class LibraryMemory {
  /** The Library's last address ("#/library?…"). */
  hash = $state('#/library');
  private spot: Spot | null = null;

  /** Remembers the spot, here and (when keep) in the current history entry. */
  remember(spot: Spot, keep: boolean): void {
    this.spot = spot;
    if (keep && typeof history !== 'undefined') {
      try {
        history.replaceState({ ...(history.state ?? {}), [stateKey]: spot }, '');
      } catch {
        // a browser that limits replaceState's rate: the spot stays in memory
      }
    }
  }

  /** The spot to return to in view v: the history entry's, else the last one remembered. */
  recall(v: LibraryView): Spot | null {
    const key = viewKey(v);
    const fromHistory = typeof history !== 'undefined' ? (history.state?.[stateKey] as Spot | undefined) : undefined;
    for (const s of [fromHistory, this.spot]) {
      if (s && s.key === key && typeof s.index === 'number' && typeof s.id === 'string') return s;
    }
    return null;
  }
}

export const libraryMemory = new LibraryMemory();
