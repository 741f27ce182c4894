// The current route as reactive state, following location.hash.

import { parseHash, type Route } from './route';

class Router {
  current = $state<Route>(parseHash(typeof location === 'undefined' ? '' : location.hash));

  constructor() {
    if (typeof window !== 'undefined') {
      window.addEventListener('hashchange', () => {
        this.current = parseHash(location.hash);
      });
    }
  }

  /** Goes to a hash (a new history entry). */
  go(hash: string): void {
    if (location.hash === hash) return;
    location.hash = hash;
  }

  /** Replaces the current entry (as-you-type state such as the search query). */
  replace(hash: string): void {
    if (location.hash === hash) return;
    history.replaceState(history.state, '', hash);
    this.current = parseHash(hash);
  }
}

export const router = new Router();
