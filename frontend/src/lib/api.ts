// The one adapter between the UI and Strata's App service (app/app.go). In the Wails window the
// methods are window.go.app.App.<Method>(...args); in a browser they are POST /api/<Method> with
// the positional arguments as a JSON array (app/http.go). Both reject with an ApiError.

import { ApiError, toApiError, parseEnvelope } from './errors';
import type {
  AskRequest,
  Autostart,
  AskResponse,
  DocumentPage,
  DocumentQuery,
  DocumentView,
  EntityPage,
  ErrorCode,
  FieldProvenance,
  IngestResult,
  InstallResult,
  LintReport,
  LintRequest,
  ObservationPage,
  Overview,
  Import,
  RelationshipPage,
  RelationshipResult,
  SearchRequest,
  SearchResponse,
  Settings,
  Snapshot,
  Status,
  SuggestionDecision,
  SuggestionPage,
} from './types';

type Bound = Record<string, (...args: unknown[]) => Promise<unknown>>;

interface WailsRuntime {
  EventsOn(name: string, cb: (...data: unknown[]) => void): (() => void) | void;
  EventsOff?(name: string, ...more: string[]): void;
}

interface StrataWindow {
  go?: { app?: { App?: Bound } };
  runtime?: WailsRuntime;
}

function win(): StrataWindow | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as StrataWindow);
}

/** True in the Wails desktop window (the Go methods are bound on window.go). */
export function isDesktop(): boolean {
  return !!win()?.go?.app?.App;
}

/** Calls one App method by name with positional arguments. */
export function call<T>(method: string, ...args: unknown[]): Promise<T> {
  return callWith<T>({}, method, ...args);
}

/**
 * call, with a signal that aborts the request: a browser's fetch stops (the answer is never
 * read) and the call rejects with ABORTED. The window's bindings cannot be aborted: there the
 * caller drops the stale answer itself (async.ts, Latest).
 */
export async function callWith<T>(opts: { signal?: AbortSignal }, method: string, ...args: unknown[]): Promise<T> {
  const bound = win()?.go?.app?.App;
  if (bound) {
    const fn = bound[method];
    if (typeof fn !== 'function') throw new ApiError('NOT_FOUND', `no method ${method} in this version of Strata`);
    try {
      return (await fn(...args)) as T;
    } catch (e) {
      throw toApiError(e);
    }
  }
  let res: Response;
  try {
    res = await fetch(`./api/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(args),
      signal: opts.signal,
    });
  } catch {
    if (opts.signal?.aborted) throw new ApiError('ABORTED', `${method} was replaced by a newer request`);
    throw new ApiError('NETWORK_ERROR', 'Strata is not answering', 'is `strata serve` (or the app) still running?');
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    if (opts.signal?.aborted) throw new ApiError('ABORTED', `${method} was replaced by a newer request`);
    throw new ApiError('NETWORK_ERROR', 'Strata stopped answering in the middle of a reply', 'is `strata serve` (or the app) still running?');
  }
  if (!res.ok) {
    const env = parseEnvelope(text);
    if (env) throw ApiError.from(env);
    if (res.status === 401 || res.status === 403) {
      throw new ApiError('UNAUTHORIZED', 'this page is not signed in to Strata', 'open the address `strata serve` printed (it carries the token)');
    }
    throw new ApiError('HTTP_' + res.status, text.trim() || res.statusText || `HTTP ${res.status}`);
  }
  if (text.trim() === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError('BAD_RESPONSE', `${method} answered something that is not JSON`);
  }
}

/**
 * Subscribes to a desktop event ("status", "dropped"). Returns an unsubscribe function; in a
 * browser there are no events and it returns a no-op (callers poll instead).
 */
export function on<T>(event: string, cb: (data: T) => void): () => void {
  const rt = win()?.runtime;
  if (!isDesktop() || !rt || typeof rt.EventsOn !== 'function') return () => {};
  const off = rt.EventsOn(event, (...data: unknown[]) => cb(data[0] as T));
  return () => {
    if (typeof off === 'function') off();
    else rt.EventsOff?.(event);
  };
}

/** Every App method the UI uses, typed. */
export const api = {
  status: () => call<Status>('Status'),
  overview: () => call<Overview>('Overview'),
  ingestPaths: (paths: string[]) => call<Import>('IngestPaths', paths),
  ingestText: (title: string, text: string) => call<IngestResult>('IngestText', title, text),
  upload: (name: string, base64: string) => call<Import>('Upload', name, base64),
  documents: (q: DocumentQuery) => call<DocumentPage>('Documents', q),
  document: (id: string) => call<DocumentView>('Document', id),
  retry: (id: string) => call<IngestResult>('Retry', id),
  errorCodes: () => call<ErrorCode[]>('ErrorCodes'),
  search: (r: SearchRequest, signal?: AbortSignal) => callWith<SearchResponse>({ signal }, 'Search', r),
  entity: (id: string, at = '') => call<Snapshot>('Entity', id, at),
  observations: (id: string, limit = 50, offset = 0) => call<ObservationPage>('Observations', id, limit, offset),
  provenance: (id: string, field: string) => call<FieldProvenance>('Provenance', id, field),
  entities: (type = '', query = '', limit = 50, offset = 0) => call<EntityPage>('Entities', type, query, limit, offset),
  relationships: (id: string) => call<RelationshipPage>('Relationships', id),
  suggestions: (state = 'open') => call<SuggestionPage>('Suggestions', state),
  acceptSuggestion: (id: string) => call<SuggestionDecision>('AcceptSuggestion', id),
  dismissSuggestion: (id: string) => call<SuggestionDecision>('DismissSuggestion', id),
  createRelationship: (type: string, source: string, target: string) => call<RelationshipResult>('CreateRelationship', type, source, target),
  ask: (r: AskRequest) => call<AskResponse>('Ask', r),
  lint: (r: LintRequest) => call<LintReport>('Lint', r),
  watchedFolders: () => call<string[] | null>('WatchedFolders'),
  addWatchedFolder: (dir: string) => call<Import>('AddWatchedFolder', dir),
  removeWatchedFolder: (dir: string) => call<boolean>('RemoveWatchedFolder', dir),
  settings: () => call<Settings>('Settings'),
  clientSnippet: (client: string, useHTTP: boolean) => call<string>('ClientSnippet', client, useHTTP),
  installClient: (client: string) => call<InstallResult>('InstallClient', client),
  setKeepRunning: (on: boolean) => call<void>('SetKeepRunning', on),
  setAutostart: (on: boolean) => call<Autostart>('SetAutostart', on),
  quit: () => call<void>('Quit'),
  pickFiles: () => call<Import | null>('PickFiles'),
  pickFolder: () => call<string>('PickFolder'),
  openPath: (path: string) => call<void>('OpenPath', path),
};

/** Reads a browser File as base64 (for Upload), without building a giant string by hand. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onerror = () => reject(r.error ?? new Error('cannot read the file'));
    r.onload = () => {
      const s = String(r.result ?? '');
      const comma = s.indexOf(',');
      resolve(comma >= 0 ? s.slice(comma + 1) : s);
    };
    r.readAsDataURL(file);
  });
}
