// Short-lived messages in the corner: results of actions, and errors with their hint.

import { toApiError } from './errors';

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  title: string;
  body?: string;
  hint?: string;
  /** Where to look ("Show failed documents"). */
  link?: { href: string; label: string };
}

let next = 1;

class Toasts {
  list = $state<Toast[]>([]);
  private timers = new Map<number, ReturnType<typeof setTimeout>>();

  push(t: Omit<Toast, 'id'>, ms = t.kind === 'error' ? 9000 : 4500): number {
    const id = next++;
    this.list = [...this.list.slice(-4), { ...t, id }];
    this.arm(id, ms);
    return id;
  }

  private arm(id: number, ms: number) {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    if (ms > 0) this.timers.set(id, setTimeout(() => this.dismiss(id), ms));
  }

  /** Whether a toast is still shown. */
  shown(id: number): boolean {
    return this.list.some((t) => t.id === id);
  }

  info(title: string, body?: string) {
    return this.push({ kind: 'info', title, body });
  }

  success(title: string, body?: string) {
    return this.push({ kind: 'success', title, body });
  }

  /** Shows an error (any rejection) with its code and hint. */
  error(e: unknown, title?: string) {
    const err = toApiError(e);
    return this.push({ kind: 'error', title: title ?? err.message, body: title ? err.message : undefined, hint: err.hint });
  }

  /** Changes a toast still shown (a count that moved on); one already gone stays gone. With
   * ms, the toast is shown that long again from now (news added to it). */
  update(id: number, patch: Partial<Omit<Toast, 'id'>>, ms?: number) {
    if (!this.shown(id)) return;
    this.list = this.list.map((t) => (t.id === id ? { ...t, ...patch } : t));
    if (ms !== undefined) this.arm(id, ms);
  }

  dismiss(id: number) {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    this.list = this.list.filter((t) => t.id !== id);
  }

  clear() {
    this.list = [];
  }
}

export const toasts = new Toasts();
