// What became of a document, in the words a person reads: "failed: the PDF is truncated",
// "not supported", "empty — nothing to index", "same content as a.md, not read again". One
// function so the drop zone's list, the library and the document screen cannot disagree, and so
// a document that did not really get analysed never wears a hollow "analyzed" (issue 12 §2).

import { isBusy, docError } from './phases';
import { formatBytes } from './format';
import type { Document, ErrorBody } from './types';

export type OutcomeKind = 'working' | 'analyzed' | 'failed' | 'unsupported' | 'empty' | 'duplicate' | 'removed';

export interface Outcome {
  kind: OutcomeKind;
  /** One or two words for a chip or the list's state column. */
  label: string;
  /** The sentence after the label: the reason, or what happened instead of reading. */
  reason: string;
  hint?: string;
  error?: ErrorBody | null;
  /** Whether a Retry can help (the error registry's retryable flag, through ErrorCodes). */
  retry: boolean;
}

/** The code Strata gives a file whose format it does not read. */
export const unsupportedCode = 'UNSUPPORTED_FILE_TYPE';

/** Which codes a retry can help: the registry's table (App.ErrorCodes), as code → retryable. */
export type RetryTable = ReadonlyMap<string, boolean> | null;

/**
 * Whether Retry is worth offering for code. Unknown table (not loaded yet): no, rather than a
 * button that may not help; a code the table lacks is treated as the registry treats it
 * (INTERNAL_ERROR's flag).
 */
export function canRetry(table: RetryTable, code: string | undefined): boolean {
  if (!table) return false;
  if (code && table.has(code)) return table.get(code)!;
  return table.get('INTERNAL_ERROR') ?? false;
}

type OutcomeDoc = Pick<Document, 'status' | 'phase_register' | 'phase_analyze' | 'phase_semantic' | 'kind' | 'size'> &
  Partial<Pick<Document, 'duplicate_of' | 'last_error'>>;

/**
 * The outcome of d. originalName names the document a duplicate repeats (its file name), when
 * the caller knows it.
 */
export function docOutcome(d: OutcomeDoc, table: RetryTable, originalName?: string): Outcome {
  const err = docError(d);
  if (d.status === 'failed') {
    if (err?.code === unsupportedCode) {
      const size = d.size > 0 ? ` (${formatBytes(d.size)})` : '';
      return { kind: 'unsupported', label: 'not supported', reason: `not a format Strata reads${size}`, hint: err.hint, error: err, retry: false };
    }
    return {
      kind: 'failed',
      label: 'failed',
      reason: err ? err.message : 'could not be read',
      hint: err?.hint,
      error: err,
      retry: canRetry(table, err?.code),
    };
  }
  if (d.status === 'removed') return { kind: 'removed', label: 'removed', reason: 'the file is gone; its history stays', retry: false };
  if (isBusy(d)) return { kind: 'working', label: 'analysing', reason: 'added — being analysed', retry: false };
  if (d.duplicate_of) {
    return { kind: 'duplicate', label: 'duplicate', reason: `same content as ${originalName || 'another document'}, not read again`, retry: false };
  }
  if (d.kind === 'file' && d.size === 0 && d.phase_analyze === 'skipped') {
    return { kind: 'empty', label: 'empty', reason: 'empty — nothing to index', retry: false };
  }
  return { kind: 'analyzed', label: d.status === 'semantic' ? 'understood' : 'analyzed', reason: 'added and analysed', retry: false };
}

/** A document's size for a table cell: "" when it was never measured (a file that could not be
 * opened), never a "0 B" that claims the file is empty. */
export function sizeText(d: Pick<Document, 'size' | 'phase_register' | 'phase_analyze'>): string {
  if (d.size === 0 && d.phase_register === 'failed') return '';
  return formatBytes(d.size);
}
