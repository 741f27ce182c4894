// Plain hash routing: #/library, #/search?q=…, #/document/ID, #/entity/ID, #/entities,
// #/suggestions?state=…, #/health?kind=…&page=…, #/settings.
// Reloading, back/forward and deep links from tests all work because the whole state is in the hash.

export type RouteName = 'library' | 'search' | 'document' | 'entity' | 'entities' | 'suggestions' | 'health' | 'settings' | 'notfound';

export interface Route {
  name: RouteName;
  id: string; // document or entity ID ("" for the others)
  query: Record<string, string>;
}

const simple: Record<string, RouteName> = {
  '': 'library',
  library: 'library',
  search: 'search',
  entities: 'entities',
  suggestions: 'suggestions',
  health: 'health',
  settings: 'settings',
};

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Parses a location hash ("#/document/doc_1?chunk=chk_2"). */
export function parseHash(hash: string): Route {
  let h = hash.startsWith('#') ? hash.slice(1) : hash;
  let qs = '';
  const qi = h.indexOf('?');
  if (qi >= 0) {
    qs = h.slice(qi + 1);
    h = h.slice(0, qi);
  }
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(qs)) query[k] = v;
  const parts = h.split('/').filter((p) => p !== '').map(safeDecode);
  if (parts.length === 0) return { name: 'library', id: '', query };
  const [head, id, ...rest] = parts;
  if (rest.length === 0 && id === undefined && head in simple) return { name: simple[head], id: '', query };
  if ((head === 'document' || head === 'entity') && id && rest.length === 0) return { name: head, id, query };
  return { name: 'notfound', id: '', query };
}

/** Builds a hash for a route; empty query values are left out. */
export function buildHash(name: Exclude<RouteName, 'notfound'>, id = '', query: Record<string, string | number | undefined | null> = {}): string {
  let h = '#/' + name;
  if (name === 'document' || name === 'entity') h += '/' + encodeURIComponent(id);
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${h}?${s}` : h;
}

export const href = {
  library: (q: Record<string, string | undefined> = {}) => buildHash('library', '', q),
  search: (q = '', mode = '', ask = false) => buildHash('search', '', { q, mode: mode === 'hybrid' ? '' : mode, ask: ask ? 1 : undefined }),
  document: (id: string, at: { chunk?: string; line?: number } = {}) => buildHash('document', id, at),
  entity: (id: string, at = '') => buildHash('entity', id, { at }),
  entities: (q: Record<string, string | undefined> = {}) => buildHash('entities', '', q),
  suggestions: (state = '') => buildHash('suggestions', '', { state: state === 'open' ? '' : state }),
  health: (kind = '', page = 1) => buildHash('health', '', { kind, page: page > 1 ? page : undefined }),
  settings: () => buildHash('settings'),
};
