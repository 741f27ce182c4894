// The JSON shapes of the App methods (app/app.go), from the Go structs' json tags in
// backend/engine and backend/store. Optional fields are the ones tagged omitempty.

export interface ErrorBody {
  code: string;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
}

export interface Envelope {
  error: ErrorBody;
}

export interface Reembed {
  done: number;
  total: number;
}

export interface EmbeddingStatus {
  provider: string;
  model: string;
  status: string; // ready | building
  actual_provider: string;
  actual_model: string;
  dimensions: number;
  is_fallback_active: boolean;
  semantic_quality: string; // high | low
  reembed: Reembed;
  space: string;
  fallback_reason?: string;
  hint?: string;
}

export interface Counts {
  payloads: number;
  submissions: number;
  documents: Record<string, number>;
  chunks: number;
  entities: Record<string, number>;
  observations: number;
  relationships: number;
}

/** watch.RootStatus has no json tags today, so its keys are Go's field names. */
export interface RootStatus {
  Root?: string;
  Mode?: string;
  Dirs?: number;
  Files?: number;
  Overflows?: number;
  Err?: string;
  [k: string]: unknown;
}

export interface Status {
  version: string;
  data_dir: string;
  database: string;
  schema_version: number;
  counts: Counts;
  capabilities: string[];
  input_kinds: InputKind[];
  entity_types: string[];
  jobs: Record<string, number>;
  watch_roots: string[] | null;
  watching?: RootStatus[];
  embeddings: EmbeddingStatus | null;
}

/** One shape ingest accepts (engine.InputKind): discovery for clients, from the spec registry. */
export interface InputKind {
  kind: string; // content | extract-file | payload | semantic
  id: string;
  input_kind: string;
  description: string;
  required_fields: string[];
  required_one_of?: string[];
  optional_fields?: string[];
  body?: { required: string[]; fields: Record<string, string>; additional: boolean };
  match_fields?: string[];
  capability?: string;
  doc_types?: string[];
  spec_file?: string;
}

export interface DayCount {
  day: string;
  count: number;
}

export interface Overview {
  by_type: Record<string, number>;
  by_status: Record<string, number>;
  by_day: DayCount[];
}

export type DocStatus = 'registered' | 'analyzed' | 'semantic' | 'failed' | 'removed';

export interface Document {
  document_id: string;
  payload_id?: string;
  entity_id?: string;
  kind: string;
  path?: string;
  title: string;
  mime: string;
  size: number;
  mtime?: string;
  pages?: number;
  content_hash: string;
  duplicate_of?: string;
  doc_type?: string;
  tags?: string[];
  status: DocStatus | string;
  phase_register: string;
  phase_analyze: string;
  phase_semantic: string;
  last_error?: Envelope | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentPage {
  documents: Document[];
  total: number;
  limit: number;
  offset: number;
}

export interface DocumentQuery {
  status?: string;
  path?: string;
  type?: string;
  limit?: number;
  offset?: number;
}

export interface Chunk {
  chunk_id: string;
  document_id: string;
  ordinal: number;
  text: string;
  heading: string;
  byte_start: number;
  byte_end: number;
  line_start: number;
  line_end: number;
  page?: number;
}

export interface Job {
  job_id: number;
  document_id: string;
  payload_id: string;
  phase: string;
  state: string;
  attempts: number;
  not_before: string;
  lease_owner?: string;
  lease_until?: string;
  error?: Envelope | null;
  created_at: string;
  updated_at: string;
}

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

export interface Observation {
  id: string;
  entity_id: string;
  entity_type: string;
  schema_version: string;
  source_payload_id: string;
  source_record_id: string;
  document_id?: string;
  extractor: string;
  observed_at: string;
  specificity_score: number;
  source_priority: number;
  fields: Record<string, unknown>;
  span?: Span | null;
  created_at: string;
}

export interface DocumentView extends Document {
  chunks: Chunk[];
  jobs: Job[];
  observations: Observation[];
}

export interface IngestResult {
  input_kind?: string;
  payload_id?: string;
  created: boolean;
  message?: string;
  entity_ids?: string[];
  entities?: { entity_id: string; entity_type: string; name: string }[];
  relationship_ids?: string[];
  document_id?: string;
  phases?: Record<string, string>;
}

export interface PathResult {
  path: string;
  result?: IngestResult;
  error?: ErrorBody;
  document?: Document;
}

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface SearchRequest {
  query: string;
  mode?: SearchMode;
  limit?: number;
  type?: string;
  path?: string;
  tag?: string;
  per_document?: boolean;
}

export interface SearchResult {
  document_id: string;
  path?: string;
  title: string;
  chunk_id: string;
  snippet: string;
  line_start: number;
  line_end: number;
  page?: number;
  heading?: string;
  score: number;
  modes: { keyword?: number; vector?: number };
}

export interface SearchResponse {
  mode: string;
  results: SearchResult[];
  took_ms: number;
  notice?: string;
  embedder: EmbeddingStatus;
}

export interface Snapshot {
  entity_id: string;
  entity_type: string;
  schema_version: string;
  canonical_name: string;
  aliases: string[] | null;
  snapshot: Record<string, unknown>;
  provenance: Record<string, string>;
  computed_at: string;
  observation_count: number;
  last_observation_at: string | null;
  at?: string;
}

export interface ObservationPage {
  observations: Observation[];
  total: number;
  limit: number;
  offset: number;
}

export interface Candidate {
  observation_id: string;
  value: unknown;
  observed_at: string;
  source_priority: number;
  specificity_score: number;
  chosen: boolean;
}

export interface FieldProvenance {
  entity_id: string;
  field: string;
  value: unknown;
  merge_policy: string;
  source_observation: {
    id: string;
    source_payload_id: string;
    source_record_id: string;
    extractor: string;
    observed_at: string;
    specificity_score: number;
    source_priority: number;
    span?: Span | null;
  };
  source_record: {
    id: string;
    type: string;
    file_urls: string[];
    created_at: string;
  };
  source_payload: {
    payload_id: string;
    payload_content_id: string;
    kind: string;
    capability_id?: string;
    origin: Record<string, unknown> | null;
    created_at: string;
  };
  source_document?: { document_id: string; kind: string; path?: string; title: string } | null;
  observed_at: string;
  contributors?: string[];
  candidates: Candidate[];
}

export interface Entity {
  entity_id: string;
  entity_type: string;
  canonical_name: string;
  identity_key: string;
  aliases: string[] | null;
  created_at: string;
}

export interface EntityPage {
  entities: Entity[];
  total: number;
  limit: number;
  offset: number;
}

export interface Relationship {
  id: string;
  relationship_type: string;
  source_entity_id: string;
  target_entity_id: string;
  metadata?: Record<string, unknown> | null;
  source_payload_id?: string;
  created_at: string;
}

export interface RelationshipPage {
  relationships: Relationship[];
  total: number;
  limit?: number;
  offset?: number;
}

export interface Settings {
  data_dir: string;
  mcp_url: string;
  token: string;
  desktop: boolean;
  clients: string[];
  log_lines: string[];
}

export interface InstallResult {
  path: string;
  backup?: string;
}
