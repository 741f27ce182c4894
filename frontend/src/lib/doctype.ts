// What the Library's type column says for a document without a type (tested in doctype.test.ts).
// Its analysis names the type: until then the document is "pending" (the overview chart and the
// type filter say the same, from Go's store.TypePending), not "other" or a blank.

import type { Document } from './types';

export function typeLabel(d: Pick<Document, 'doc_type' | 'status'>): string {
  if (d.doc_type) return d.doc_type;
  // "other", as the overview chart and the Type filter name these documents.
  return d.status === 'registered' ? 'pending' : 'other';
}
