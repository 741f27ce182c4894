// The JSON shapes of the App methods (app/app.go). They come from Wails' generated models
// (frontend/wailsjs/go/models.ts, written by `make bindings` from the Go structs' json tags and
// checked for staleness by TestBindingsAreFresh): this file only gives them the names the UI
// uses, and narrows the few fields the generator cannot express.
//
// The generator renders json.RawMessage as number[] (it is a []byte to reflection), so every
// raw-JSON field is re-declared below as what it holds; everything else is taken as generated.

import type { app, ask, docstate, engine, errs, ingest, lint, search, store, watch } from '../../wailsjs/go/models';
import type { EvidenceItem } from './enrich';

/** A field holding raw JSON (json.RawMessage in Go). */
type RawJSON = unknown;

export type ErrorBody = errs.Error;

export interface Envelope {
  error: ErrorBody;
}

export type Reembed = engine.Reembed;
export type EmbeddingStatus = engine.EmbeddingStatus;
export type Counts = store.Counts;
export type RootStatus = watch.RootStatus;
export type Status = engine.Status;
export type DayCount = store.DayCount;
export type Overview = store.Overview;

/** A document's status: the values of Go's docstate.Status (generated), as a string union. */
export type DocStatus = `${docstate.Status}`;

/** A phase's state (docstate.Phase): pending, queued, running, done, skipped or failed. */
export type PhaseState = `${docstate.Phase}`;

/** Every status in life-cycle order, for filters and charts. The check below fails to compile
 * when Go gains a status this list lacks (regenerate with `make bindings`). */
export const docStatuses = ['registered', 'analyzed', 'semantic', 'failed', 'removed'] as const satisfies readonly DocStatus[];
type MissingStatus = Exclude<DocStatus, (typeof docStatuses)[number]>;
const everyStatusListed: [MissingStatus] extends [never] ? true : MissingStatus = true;
void everyStatusListed;

/** store.Document; last_error is the error envelope the failed phase stored. */
export type Document = Omit<store.Document, 'last_error'> & { last_error?: Envelope | null };

export type DocumentPage = Omit<engine.DocumentPage, 'documents'> & { documents: Document[] };
export type DocumentQuery = engine.DocumentQuery;
export type Chunk = store.Chunk;

/** store.Job; error is the envelope of its last failure. */
export type Job = Omit<store.Job, 'error'> & { error?: Envelope | null };

/** A finding inside an analysis observation's span (dates, money, e-mails, URLs, hashtags). */
export interface Finding {
  kind: string;
  value: string;
  line?: number;
  page?: number;
  byte_start?: number;
  byte_end?: number;
}

/** Observation spans are free-form JSON; these are the keys Strata writes today. */
export interface Span {
  path?: string;
  line?: number;
  line_start?: number;
  line_end?: number;
  page?: number;
  byte_start?: number;
  byte_end?: number;
  chunk_id?: string;
  chunk_ids?: string[];
  findings?: Finding[];
  [k: string]: unknown;
}

export type Observation = Omit<store.Observation, 'fields' | 'span'> & {
  fields: Record<string, unknown>;
  span?: Span | null;
};

export type DocumentView = Omit<engine.DocumentView, 'last_error' | 'jobs' | 'observations' | 'links'> &
  Pick<Document, 'last_error'> & { jobs: Job[]; observations: Observation[]; links: RelationshipPage };

export type IngestResult = ingest.Result;

export type PathResult = Omit<engine.PathResult, 'document'> & { document?: Document };

/** What adding files did: each file's result and the import's counts (engine.Import). */
export type Import = Omit<engine.Import, 'results'> & { results: PathResult[] };
export type ImportSummary = engine.ImportSummary;

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export type SearchRequest = Omit<engine.SearchRequest, 'mode'> & { mode?: SearchMode };
export type SearchResult = search.Result;
export type SearchResponse = engine.SearchResponse;

export type Snapshot = Omit<engine.Snapshot, 'snapshot'> & { snapshot: Record<string, RawJSON> };
export type ObservationPage = Omit<engine.ObservationPage, 'observations'> & { observations: Observation[] };
export type Candidate = Omit<engine.Candidate, 'value'> & { value: RawJSON };

export type FieldProvenance = Omit<engine.FieldProvenance, 'value' | 'source_observation' | 'source_payload' | 'candidates'> & {
  value: RawJSON;
  source_observation: Omit<engine.SourceObservation, 'span'> & { span?: Span | null };
  source_payload: Omit<engine.SourcePayload, 'origin'> & { origin: Record<string, unknown> | null };
  candidates: Candidate[];
};

export type Entity = store.Entity;
export type EntityPage = engine.EntityPage;

export type Settings = app.Settings;
export type Autostart = app.Autostart;
export type InstallResult = app.InstallResult;
export type ErrorCode = app.ErrorCode;

// Enrichments (issue 14): evidence and metadata are raw JSON in Go, re-declared as what they hold.

/** One end of a link or suggestion, named (store.EntityRef). */
export type EntityRef = store.EntityRef;

/** A link in a listing: asserted, or derived (with enrichment name@version, score, evidence). */
export type Relationship = Omit<engine.RelationshipItem, 'metadata' | 'evidence'> & {
  metadata?: Record<string, unknown> | null;
  evidence?: EvidenceItem[] | null;
};
export type RelationshipPage = Omit<engine.RelationshipPage, 'relationships'> & { relationships: Relationship[] };

export type EnrichStatus = engine.EnrichStatus;
export type EnrichmentStatus = engine.EnrichmentStatus;

/** A pair DiscoveryGap found related while nothing links them, both ends named. */
export type Suggestion = Omit<engine.SuggestionItem, 'evidence'> & { evidence: EvidenceItem[] | null };
export type SuggestionPage = Omit<engine.SuggestionPage, 'suggestions'> & { suggestions: Suggestion[] };
export type SuggestionDecision = Omit<engine.SuggestionDecision, 'suggestion' | 'relationship'> & {
  suggestion: Omit<store.Suggestion, 'evidence'> & { evidence: EvidenceItem[] | null };
  relationship?: Omit<store.Relationship, 'metadata'> & { metadata?: Record<string, unknown> | null };
};

// Ask and lint (issue 15): fact values and finding values are raw JSON in Go.

export type AskRequest = engine.AskRequest;
export type SearchFilters = engine.SearchFilters;
export type Citation = ask.Citation;
export type Unsupported = ask.Unsupported;
/** A snapshot value of an entity the question names, with where it came from. */
export type Fact = Omit<ask.Fact, 'value'> & { value: RawJSON; agent?: string };
export type AskResponse = Omit<engine.AskResponse, 'facts'> & { facts: Fact[] };

export type LintRequest = engine.LintRequest;
/** A place in a source a finding rests on (lint.Evidence). */
export type FindingEvidence = lint.Evidence;
/** One of the values sources give a field (lint.Value); shown: the snapshot shows it today. */
export type FindingValue = Omit<lint.Value, 'value'> & { value: RawJSON };
/** One click that resolves, or helps resolve, a finding (lint.Fix). */
export type FindingFix = lint.Fix;
/** One thing lint found (lint.Finding); named apart from the analysis findings above. */
export type LintFinding = Omit<lint.Finding, 'values'> & { values?: FindingValue[] };
export type LintReport = Omit<engine.LintReport, 'findings'> & { findings: LintFinding[] };
export type RelationshipResult = Omit<engine.RelationshipResult, 'metadata'> & { metadata?: Record<string, unknown> | null };
