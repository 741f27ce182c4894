import { describe, expect, it } from 'vitest';
import { typeLabel } from './doctype';

describe('typeLabel', () => {
  it('says pending until the analysis names a type', () => {
    expect(typeLabel({ doc_type: '', status: 'registered' })).toBe('pending');
    expect(typeLabel({ doc_type: '', status: 'analyzed' })).toBe('other');
    expect(typeLabel({ doc_type: '', status: 'failed' })).toBe('other');
    expect(typeLabel({ doc_type: 'note', status: 'analyzed' })).toBe('note');
  });
});
