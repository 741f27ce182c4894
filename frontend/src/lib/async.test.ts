import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce, Latest, liveQuery } from './async';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('calls once, after the quiet period, with the last arguments', () => {
    const fn = vi.fn();
    const d = debounce(fn, 150);
    d('a');
    vi.advanceTimersByTime(100);
    d('ab');
    vi.advanceTimersByTime(100);
    d('abc');
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(149);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('abc');
  });

  it('cancel drops and flush runs the pending call', () => {
    const fn = vi.fn();
    const d = debounce(fn, 150);
    d(1);
    d.cancel();
    vi.advanceTimersByTime(500);
    expect(fn).not.toHaveBeenCalled();
    d(2);
    d.flush();
    expect(fn).toHaveBeenCalledWith(2);
    d.flush(); // nothing pending
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('Latest', () => {
  it('drops a slow older answer that arrives after a newer one', async () => {
    const latest = new Latest();
    const slow = deferred<string>();
    const fast = deferred<string>();
    const first = latest.run(() => slow.promise);
    const second = latest.run(() => fast.promise);
    fast.resolve('new');
    slow.resolve('old');
    expect(await second).toEqual({ stale: false, value: 'new' });
    expect(await first).toEqual({ stale: true });
  });

  it('rethrows only the latest error', async () => {
    const latest = new Latest();
    const a = deferred<string>();
    const b = deferred<string>();
    const first = latest.run(() => a.promise);
    const second = latest.run(() => b.promise);
    a.reject(new Error('old failure'));
    expect(await first).toEqual({ stale: true });
    b.reject(new Error('new failure'));
    await expect(second).rejects.toThrow('new failure');
  });

  it('invalidate makes everything in flight stale', async () => {
    const latest = new Latest();
    const a = deferred<number>();
    const p = latest.run(() => a.promise);
    latest.invalidate();
    a.resolve(1);
    expect(await p).toEqual({ stale: true });
  });
});

describe('liveQuery', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces typing and delivers only the latest answer', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<string>>>();
    const signals = new Map<string, AbortSignal>();
    const request = vi.fn((q: string, signal: AbortSignal) => {
      const d = deferred<string>();
      pending.set(q, d);
      signals.set(q, signal);
      return d.promise;
    });
    const results: string[] = [];
    const live = liveQuery<string, string>({
      ms: 150,
      isEmpty: (q) => q.trim() === '',
      request,
      onResult: (r) => results.push(r),
      onError: () => results.push('error'),
    });
    live.input('h');
    live.input('he');
    vi.advanceTimersByTime(150);
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.lastCall?.[0]).toBe('he');
    live.input('her');
    live.input('heron');
    vi.advanceTimersByTime(150);
    expect(request).toHaveBeenCalledTimes(2);
    // the stale request is aborted (a browser's fetch stops), the newest is not
    expect(signals.get('he')!.aborted).toBe(true);
    expect(signals.get('heron')!.aborted).toBe(false);
    // the newer query answers first, the older one late
    pending.get('heron')!.resolve('results for heron');
    await vi.runAllTimersAsync();
    pending.get('he')!.resolve('results for he');
    await vi.runAllTimersAsync();
    expect(results).toEqual(['results for heron']);
  });

  it('a key drops the answer on its way: results wait for the pause', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<string>>>();
    const signals = new Map<string, AbortSignal>();
    const results: string[] = [];
    const live = liveQuery<string, string>({
      ms: 100,
      isEmpty: (q) => q === '',
      request: (q, signal) => {
        const d = deferred<string>();
        pending.set(q, d);
        signals.set(q, signal);
        return d.promise;
      },
      onResult: (r) => results.push(r),
      onError: () => results.push('error'),
    });
    live.input('gz');
    vi.advanceTimersByTime(100); // 'gz' is asked for
    live.input('gzi'); // a key while it is on its way
    expect(signals.get('gz')!.aborted).toBe(true);
    pending.get('gz')!.resolve('results for gz');
    await vi.runAllTimersAsync(); // 'gzi' is asked for after the pause
    expect(results).toEqual([]);
    pending.get('gzi')!.resolve('results for gzi');
    await vi.runAllTimersAsync();
    expect(results).toEqual(['results for gzi']);
  });

  it('clearing the input cancels what is pending and in flight', async () => {
    const d = deferred<string>();
    const onResult = vi.fn();
    const onClear = vi.fn();
    let signal: AbortSignal | undefined;
    const live = liveQuery<string, string>({
      ms: 150,
      isEmpty: (q) => q === '',
      request: (_q, s) => ((signal = s), d.promise),
      onResult,
      onError: vi.fn(),
      onClear,
    });
    live.input('acme');
    vi.advanceTimersByTime(150);
    live.input('');
    expect(onClear).toHaveBeenCalledTimes(1);
    expect(signal?.aborted).toBe(true);
    d.resolve('late');
    await vi.runAllTimersAsync();
    expect(onResult).not.toHaveBeenCalled();
  });

  it('now() skips the wait (mode switch, Enter) and reports errors', async () => {
    const onError = vi.fn();
    const live = liveQuery<string, string>({
      ms: 150,
      isEmpty: () => false,
      request: () => Promise.reject(new Error('VALIDATION_ERROR: bad')),
      onResult: vi.fn(),
      onError,
    });
    live.now('x');
    await vi.runAllTimersAsync();
    expect(onError).toHaveBeenCalledTimes(1);
  });
});
