import type { ErrorBody } from './types';

/** The one error type the UI shows: Strata's envelope {code, message, hint}. */
export class ApiError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly details?: Record<string, unknown>;

  constructor(code: string, message: string, hint = '', details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.code = code || 'ERROR';
    this.hint = hint || '';
    this.details = details;
  }

  static from(body: ErrorBody): ApiError {
    return new ApiError(body.code, body.message, body.hint ?? '', body.details);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads an error body from anything that may hold one: an envelope {"error": {...}}, a bare
 * {code, message}, or their JSON text. Returns null when there is none.
 */
export function parseEnvelope(v: unknown): ErrorBody | null {
  if (typeof v === 'string') {
    const t = v.trim();
    if (!t.startsWith('{')) return null;
    try {
      return parseEnvelope(JSON.parse(t));
    } catch {
      return null;
    }
  }
  if (!isRecord(v)) return null;
  const inner = isRecord(v.error) ? v.error : v;
  if (typeof inner.code === 'string' && typeof inner.message === 'string') {
    return {
      code: inner.code,
      message: inner.message,
      hint: typeof inner.hint === 'string' ? inner.hint : undefined,
      details: isRecord(inner.details) ? inner.details : undefined,
    };
  }
  return null;
}

// Go's errs.Error.Error() is "CODE: message" (and ": cause" when wrapped); Wails without an
// ErrorFormatter rejects with exactly that text.
const codePrefix = /^([A-Z][A-Z0-9_]{2,}): ([\s\S]+)$/;

/**
 * Turns whatever a call rejected with into an ApiError: the desktop binding rejects with an Error
 * (or a string) whose text may be the JSON envelope, or Go's "CODE: message" text; fetch fails
 * with a TypeError.
 */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const direct = parseEnvelope(e);
  if (direct) return ApiError.from(direct);
  let text = '';
  if (typeof e === 'string') text = e;
  else if (e instanceof Error) text = e.message;
  else if (isRecord(e) && typeof e.message === 'string') text = e.message;
  else if (e !== undefined && e !== null) text = String(e);
  const fromText = parseEnvelope(text);
  if (fromText) return ApiError.from(fromText);
  const m = codePrefix.exec(text.trim());
  if (m) return new ApiError(m[1], m[2]);
  return new ApiError('ERROR', text || 'something went wrong');
}

/** A stored envelope (document.last_error, job.error) as an ErrorBody, or null. */
export function storedError(v: unknown): ErrorBody | null {
  return parseEnvelope(v);
}
