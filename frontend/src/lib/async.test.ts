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
    const request = vi.fn((q: string) => {
      const d = deferred<string>();
      pending.set(q, d);
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
    expect(request).toHaveBeenLastCalledWith('he');
    live.input('her');
    live.input('heron');
    vi.advanceTimersByTime(150);
    expect(request).toHaveBeenCalledTimes(2);
    // the newer query answers first, the older one late
    pending.get('heron')!.resolve('results for heron');
    await vi.runAllTimersAsync();
    pending.get('he')!.resolve('results for he');
    await vi.runAllTimersAsync();
    expect(results).toEqual(['results for heron']);
  });

  it('clearing the input cancels what is pending and in flight', async () => {
    const d = deferred<string>();
    const onResult = vi.fn();
    const onClear = vi.fn();
    const live = liveQuery<string, string>({ ms: 150, isEmpty: (q) => q === '', request: () => d.promise, onResult, onError: vi.fn(), onClear });
    live.input('acme');
    vi.advanceTimersByTime(150);
    live.input('');
    expect(onClear).toHaveBeenCalledTimes(1);
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
