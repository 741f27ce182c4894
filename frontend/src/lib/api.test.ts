import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, call, isDesktop, on } from './api';
import { ApiError } from './errors';

const g = globalThis as unknown as { window?: unknown; fetch: typeof fetch };

/** The ApiError a call rejects with (fails the test if it resolves). */
function fail(p: Promise<unknown>): Promise<ApiError> {
  return p.then(
    () => {
      throw new Error('the call resolved');
    },
    (e: ApiError) => e,
  );
}

function response(status: number, body: string): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'application/json' } });
}

describe('browser mode (fetch)', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    delete g.window;
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('POSTs the positional arguments as a JSON array to /api/<Method>', async () => {
    fetchMock.mockResolvedValue(response(200, '{"entity_id":"ent_1"}'));
    const r = await api.entity('ent_1', '2025-01-15');
    expect(r).toEqual({ entity_id: 'ent_1' });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('./api/Entity');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(JSON.parse(init.body)).toEqual(['ent_1', '2025-01-15']);
  });

  it('sends an empty array for methods without arguments, and objects as they are', async () => {
    fetchMock.mockResolvedValue(response(200, '{"version":"1"}'));
    await api.status();
    expect(JSON.parse(fetchMock.mock.calls[0][1].body)).toEqual([]);
    fetchMock.mockResolvedValue(response(200, '{"results":[]}'));
    await api.search({ query: 'acme', mode: 'keyword' });
    expect(JSON.parse(fetchMock.mock.calls[1][1].body)).toEqual([{ query: 'acme', mode: 'keyword' }]);
    expect(isDesktop()).toBe(false);
  });

  it('turns a non-2xx envelope into an ApiError', async () => {
    fetchMock.mockResolvedValue(response(404, '{"error":{"code":"DOCUMENT_NOT_FOUND","message":"no such document","hint":"list them"}}'));
    const e = await fail(api.document('doc_x'));
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.message, e.hint]).toEqual(['DOCUMENT_NOT_FOUND', 'no such document', 'list them']);
  });

  it('handles error bodies that are not envelopes', async () => {
    fetchMock.mockResolvedValue(response(502, 'Bad Gateway'));
    const e = await fail(call('Status'));
    expect([e.code, e.message]).toEqual(['HTTP_502', 'Bad Gateway']);
    fetchMock.mockResolvedValue(response(401, ''));
    expect((await fail(call('Status'))).code).toBe('UNAUTHORIZED');
  });

  it('reports a network failure and an unreadable answer', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect((await fail(call('Status'))).code).toBe('NETWORK_ERROR');
    fetchMock.mockResolvedValue(response(200, '<html>'));
    expect((await fail(call('Status'))).code).toBe('BAD_RESPONSE');
  });

  it('returns undefined for an empty 2xx body (methods without a result)', async () => {
    fetchMock.mockResolvedValue(response(200, ''));
    expect(await api.openPath('/x')).toBeUndefined();
  });

  it('has no events: on() is a no-op', () => {
    const off = on('status', () => {});
    expect(typeof off).toBe('function');
    off();
  });
});

describe('desktop mode (window.go)', () => {
  let App: Record<string, ReturnType<typeof vi.fn>>;
  let handlers: Record<string, (...a: unknown[]) => void>;
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    App = { Status: vi.fn(), Entity: vi.fn(), Upload: vi.fn() };
    handlers = {};
    g.window = {
      go: { app: { App } },
      runtime: {
        EventsOn: vi.fn((name: string, cb: (...a: unknown[]) => void) => {
          handlers[name] = cb;
          return () => delete handlers[name];
        }),
      },
    };
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    delete g.window;
    vi.unstubAllGlobals();
  });

  it('calls the bound method with the arguments, not fetch', async () => {
    App.Entity.mockResolvedValue({ entity_id: 'ent_1' });
    expect(isDesktop()).toBe(true);
    expect(await api.entity('ent_1')).toEqual({ entity_id: 'ent_1' });
    expect(App.Entity).toHaveBeenCalledWith('ent_1', '');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('parses a rejection carrying the envelope JSON (an ErrorFormatter)', async () => {
    App.Status.mockRejectedValue(new Error('{"error":{"code":"DB_QUERY_FAILED","message":"could not read","hint":"retry"}}'));
    const e = await fail(api.status());
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.hint]).toEqual(['DB_QUERY_FAILED', 'retry']);
  });

  it("parses Wails' default rejection text \"CODE: message\"", async () => {
    App.Upload.mockRejectedValue('FILE_TOO_LARGE: big.pdf is larger than 100 MB');
    const e = await fail(api.upload('big.pdf', ''));
    expect([e.code, e.message]).toEqual(['FILE_TOO_LARGE', 'big.pdf is larger than 100 MB']);
  });

  it('uses code ERROR for anything else', async () => {
    App.Status.mockRejectedValue('something broke');
    expect((await fail(api.status())).code).toBe('ERROR');
  });

  it('says NOT_FOUND for a method this binary does not have', async () => {
    expect((await fail(call('Nope'))).code).toBe('NOT_FOUND');
  });

  it('subscribes to events and unsubscribes', () => {
    const seen: unknown[] = [];
    const off = on<{ version: string }>('status', (s) => seen.push(s));
    handlers.status({ version: '1' });
    expect(seen).toEqual([{ version: '1' }]);
    off();
    expect(handlers.status).toBeUndefined();
  });
});
