import { describe, expect, it } from 'vitest';
import { ApiError, parseEnvelope, storedError, toApiError } from './errors';

describe('parseEnvelope', () => {
  it('reads the envelope object', () => {
    expect(parseEnvelope({ error: { code: 'ENTITY_NOT_FOUND', message: 'no', hint: 'list them', details: { id: 'x' } } })).toEqual({
      code: 'ENTITY_NOT_FOUND',
      message: 'no',
      hint: 'list them',
      details: { id: 'x' },
    });
  });
  it('reads a bare error body and JSON text', () => {
    expect(parseEnvelope({ code: 'A_B', message: 'm' })).toEqual({ code: 'A_B', message: 'm', hint: undefined, details: undefined });
    expect(parseEnvelope('  {"error":{"code":"X_Y","message":"m","hint":"h"}}')?.hint).toBe('h');
  });
  it('returns null for anything else', () => {
    expect(parseEnvelope('not json')).toBeNull();
    expect(parseEnvelope('{broken')).toBeNull();
    expect(parseEnvelope({ error: 'text' })).toBeNull();
    expect(parseEnvelope({ code: 1, message: 'm' })).toBeNull();
    expect(parseEnvelope(null)).toBeNull();
    expect(parseEnvelope([1, 2])).toBeNull();
  });
  it('reads stored envelopes (document.last_error)', () => {
    expect(storedError({ error: { code: 'UNSUPPORTED_FILE_TYPE', message: 'x', hint: 'y' } })?.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(storedError(undefined)).toBeNull();
  });
});

describe('toApiError', () => {
  it('keeps an ApiError', () => {
    const e = new ApiError('C_D', 'm', 'h');
    expect(toApiError(e)).toBe(e);
  });
  it('parses a Wails rejection whose text is the envelope', () => {
    const e = toApiError(new Error('{"error":{"code":"FILE_NOT_FOUND","message":"gone","hint":"check the path"}}'));
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.message, e.hint]).toEqual(['FILE_NOT_FOUND', 'gone', 'check the path']);
  });
  it('parses a string rejection and an envelope object', () => {
    expect(toApiError('{"error":{"code":"A_B","message":"m"}}').code).toBe('A_B');
    expect(toApiError({ error: { code: 'A_B', message: 'm', hint: 'h' } }).hint).toBe('h');
  });
  it("reads Go's \"CODE: message\" error text", () => {
    const e = toApiError('VALIDATION_ERROR: query is empty');
    expect([e.code, e.message, e.hint]).toEqual(['VALIDATION_ERROR', 'query is empty', '']);
    expect(toApiError(new Error('DESKTOP_ONLY: choosing files is only available')).code).toBe('DESKTOP_ONLY');
  });
  it('falls back to code ERROR', () => {
    expect(toApiError(new Error('boom')).code).toBe('ERROR');
    expect(toApiError(new Error('boom')).message).toBe('boom');
    expect(toApiError(undefined).message).toBe('something went wrong');
    expect(toApiError(42).message).toBe('42');
    expect(toApiError('lower: case').code).toBe('ERROR');
  });
});
