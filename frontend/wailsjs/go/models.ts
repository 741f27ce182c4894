export namespace app {
	
	export interface Autostart {
	    enabled: boolean;
	    current: boolean;
	    location: string;
	    command: string;
	}
	export interface ErrorCode {
	    code: string;
	    retryable: boolean;
	    meaning: string;
	    hint: string;
	}
	export interface InstallResult {
	    path: string;
	    backup?: string;
	}
	export interface Settings {
	    data_dir: string;
	    mcp_url: string;
	    token: string;
	    desktop: boolean;
	    clients: string[];
	    log_lines: string[];
	    keep_running: boolean;
	    autostart?: Autostart;
	    autostart_error?: string;
	}

}

export namespace ask {
	
	export interface Citation {
	    n: number;
	    document_id: string;
	    path?: string;
	    title: string;
	    line_start: number;
	    line_end: number;
	    page?: number;
	    chunk_id: string;
	    quote: string;
	}
	export interface ClosestPassage {
	    document_id: string;
	    path?: string;
	    title: string;
	    line_start: number;
	    line_end: number;
	    page?: number;
	    snippet: string;
	    missing?: string[];
	}
	export interface Fact {
	    entity_id: string;
	    entity_type: string;
	    entity_name: string;
	    field: string;
	    value: number[];
	    observation_id: string;
	    document_id?: string;
	    path?: string;
	    line?: number;
	    page?: number;
	    agent?: string;
	}
	export interface Unsupported {
	    sentence: string;
	    citations: number[];
	    reason: string;
	}

}

export namespace docstate {
	
	export enum Phase {
	    Done = "done",
	    Failed = "failed",
	    Pending = "pending",
	    Queued = "queued",
	    Running = "running",
	    Skipped = "skipped",
	}
	export enum Status {
	    Analyzed = "analyzed",
	    Failed = "failed",
	    Registered = "registered",
	    Removed = "removed",
	    Semantic = "semantic",
	}

}

export namespace engine {
	
	export interface AskRequest {
	    question: string;
	    max_passages?: number;
	    format?: string;
	    filters?: SearchFilters;
	    persist?: boolean;
	}
	export interface AskResponse {
	    question: string;
	    answer: string;
	    citations: ask.Citation[];
	    facts: ask.Fact[];
	    mode: string;
	    model?: string;
	    unsupported: ask.Unsupported[];
	    notice?: string;
	    closest?: ask.ClosestPassage[];
	    document_id?: string;
	    created?: boolean;
	    embedder?: EmbeddingStatus;
	}
	export interface Background {
	    running: boolean;
	    here: boolean;
	    pid?: number;
	}
	export interface Candidate {
	    observation_id: string;
	    value: number[];
	    observed_at: string;
	    source_priority: number;
	    specificity_score: number;
	    chosen: boolean;
	}
	export interface DocumentDetail {
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
	    status: string;
	    phase_register: string;
	    phase_analyze: string;
	    phase_semantic: string;
	    last_error?: number[];
	    created_at: string;
	    updated_at: string;
	    changed_at: string;
	    duplicate_of_path?: string;
	    note?: string;
	    can_retry: boolean;
	    chunks: store.Chunk[];
	    jobs: store.Job[];
	}
	export interface DocumentPage {
	    documents: store.Document[];
	    total: number;
	    limit: number;
	    offset: number;
	}
	export interface DocumentQuery {
	    status?: string;
	    path?: string;
	    type?: string;
	    recent?: boolean;
	    sort?: DocumentSort;
	    desc?: boolean;
	    limit?: number;
	    offset?: number;
	}
	export enum DocumentSort {
	    Added = "added",
	    Name = "name",
	    Path = "path",
	    Size = "size",
	    Status = "status",
	}
	export interface DocumentView {
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
	    status: string;
	    phase_register: string;
	    phase_analyze: string;
	    phase_semantic: string;
	    last_error?: number[];
	    created_at: string;
	    updated_at: string;
	    changed_at: string;
	    duplicate_of_path?: string;
	    note?: string;
	    can_retry: boolean;
	    chunks: store.Chunk[];
	    jobs: store.Job[];
	    observations: store.Observation[];
	    links: RelationshipPage;
	}
	export interface EmbeddingStatus {
	    automatic: boolean;
	    provider: string;
	    model: string;
	    status: string;
	    actual_provider: string;
	    actual_model: string;
	    dimensions: number;
	    is_fallback_active: boolean;
	    semantic_quality: string;
	    reembed: Reembed;
	    space: string;
	    fallback_reason?: string;
	    hint?: string;
	}
	export interface EnrichStatus {
	    enrichments: EnrichmentStatus[];
	    backlog: number;
	    failed: number;
	}
	export interface EnrichmentStatus {
	    name: string;
	    version: string;
	    enabled: boolean;
	    reacts_to: string[];
	    links: number;
	    suggestions: number;
	}
	export interface EntityPage {
	    entities: store.Entity[];
	    total: number;
	    limit: number;
	    offset: number;
	}
	export interface FieldProvenance {
	    entity_id: string;
	    field: string;
	    value: number[];
	    merge_policy: string;
	    source_observation: SourceObservation;
	    source_record: SourceRecord;
	    source_payload: SourcePayload;
	    source_document?: SourceDocument;
	    observed_at: string;
	    contributors?: string[];
	    candidates: Candidate[];
	}
	export interface Import {
	    id: string;
	    results: PathResult[];
	    summary: ImportSummary;
	}
	export interface ImportSummary {
	    id: string;
	    folder?: string;
	    files: number;
	    added: number;
	    updated: number;
	    unchanged: number;
	    moved: number;
	    duplicates: number;
	    failed: number;
	    failed_by: Record<string, number>;
	    ignored: watch.Ignored;
	    pending: number;
	    finished: boolean;
	    line: string;
	    started_at: string;
	    finished_at?: string;
	}
	export interface InputBody {
	    required: string[];
	    fields: Record<string, string>;
	    additional: boolean;
	}
	export interface InputKind {
	    kind: string;
	    id: string;
	    input_kind: string;
	    description: string;
	    required_fields: string[];
	    required_one_of?: string[];
	    optional_fields?: string[];
	    body?: InputBody;
	    match_fields?: string[];
	    capability?: string;
	    doc_types?: string[];
	    spec_file?: string;
	}
	export interface LintReport {
	    findings: lint.Finding[];
	    total: number;
	    limit: number;
	    offset: number;
	    counts: Record<string, number>;
	    scope: string;
	    staleness_days: number;
	    document_id?: string;
	    checked: lint.Checked;
	    pending: number;
	}
	export interface LintRequest {
	    scope?: string;
	    staleness_days?: number;
	    limit?: number;
	    offset?: number;
	    kind?: string;
	    publish?: boolean;
	}
	export interface ObservationPage {
	    observations: store.Observation[];
	    total: number;
	    limit: number;
	    offset: number;
	}
	export interface PathResult {
	    path: string;
	    result?: ingest.Result;
	    error?: errs.Error;
	    document?: store.Document;
	}
	export interface PhaseProgress {
	    phase: string;
	    label: string;
	    done: number;
	    total: number;
	    running: number;
	    failed: number;
	    counting?: boolean;
	    state: RateState;
	    rate: number;
	    eta_seconds: number;
	}
	export interface Progress {
	    active: boolean;
	    phases: PhaseProgress[];
	}
	export enum RateState {
	    Done = "done",
	    Estimating = "estimating",
	    Moving = "moving",
	    Stalled = "stalled",
	    Waiting = "waiting",
	}
	export interface Reembed {
	    done: number;
	    total: number;
	}
	export interface RelationshipItem {
	    id: string;
	    relationship_type: string;
	    source_entity_id: string;
	    target_entity_id: string;
	    metadata?: number[];
	    source_payload_id?: string;
	    created_at: string;
	    derived: boolean;
	    enrichment?: string;
	    score?: number;
	    evidence?: number[];
	    source: store.EntityRef;
	    target: store.EntityRef;
	}
	export interface RelationshipPage {
	    relationships: RelationshipItem[];
	    total: number;
	    asserted_total: number;
	    derived_total: number;
	    limit: number;
	    offset: number;
	}
	export interface RelationshipQuery {
	    entity_id: string;
	    direction?: string;
	    relationship_type?: string;
	    derived?: boolean;
	    enrichment?: string;
	    min_score?: number;
	    limit?: number;
	    offset?: number;
	}
	export interface RelationshipResult {
	    id: string;
	    relationship_type: string;
	    source_entity_id: string;
	    target_entity_id: string;
	    metadata?: number[];
	    source_payload_id?: string;
	    created_at: string;
	    created: boolean;
	}
	export interface SearchFilters {
	    type?: string;
	    path?: string;
	    tag?: string;
	    mime?: string;
	    from?: string;
	    to?: string;
	}
	export interface SearchRequest {
	    query: string;
	    mode?: string;
	    limit?: number;
	    type?: string;
	    path?: string;
	    tag?: string;
	    mime?: string;
	    from?: string;
	    to?: string;
	    per_document?: boolean;
	    keyword_weight?: number;
	    vector_weight?: number;
	    fusion?: string;
	}
	export interface SearchResponse {
	    mode: string;
	    results: search.Result[];
	    dropped?: number;
	    took_ms: number;
	    notice?: string;
	    embedder?: EmbeddingStatus;
	}
	export interface Snapshot {
	    entity_id: string;
	    entity_type: string;
	    schema_version: string;
	    canonical_name: string;
	    aliases: string[];
	    snapshot: Record<string, Array<number>>;
	    provenance: Record<string, string>;
	    computed_at: string;
	    observation_count: number;
	    last_observation_at?: string;
	    at?: string;
	}
	export interface SourceDocument {
	    document_id: string;
	    kind: string;
	    path?: string;
	    title: string;
	}
	export interface SourceObservation {
	    id: string;
	    source_payload_id: string;
	    source_record_id: string;
	    extractor: string;
	    observed_at: string;
	    specificity_score: number;
	    source_priority: number;
	    span?: number[];
	}
	export interface SourcePayload {
	    payload_id: string;
	    payload_content_id: string;
	    kind: string;
	    capability_id?: string;
	    origin: number[];
	    created_at: string;
	}
	export interface SourceRecord {
	    id: string;
	    type: string;
	    file_urls: string[];
	    created_at: string;
	}
	export interface Status {
	    version: string;
	    data_dir: string;
	    database: string;
	    schema_version: number;
	    counts: store.Counts;
	    capabilities: string[];
	    input_kinds: InputKind[];
	    entity_types: string[];
	    jobs: Record<string, number>;
	    watch_roots: string[];
	    watch_folders: store.WatchFolder[];
	    watching?: watch.RootStatus[];
	    embeddings?: EmbeddingStatus;
	    storage: storage.Status;
	    enrichments?: EnrichStatus;
	    progress: Progress;
	    imports: ImportSummary[];
	    background: Background;
	}
	export interface SuggestionDecision {
	    suggestion: store.Suggestion;
	    relationship?: store.Relationship;
	}
	export interface SuggestionItem {
	    id: string;
	    source_entity_id: string;
	    target_entity_id: string;
	    kind: string;
	    score: number;
	    reason: string;
	    evidence: number[];
	    enrichment: string;
	    version: string;
	    state: string;
	    relationship_id?: string;
	    decided_by?: string;
	    decided_at?: string;
	    created_at: string;
	    updated_at: string;
	    source: store.EntityRef;
	    target: store.EntityRef;
	}
	export interface SuggestionPage {
	    suggestions: SuggestionItem[];
	    total: number;
	    limit: number;
	    offset: number;
	}

}

export namespace errs {
	
	export interface Error {
	    code: string;
	    message: string;
	    hint?: string;
	    details?: Record<string, any>;
	}

}

export namespace ingest {
	
	export interface EntityRef {
	    entity_id: string;
	    entity_type: string;
	    name: string;
	}
	export interface Result {
	    input_kind: string;
	    capability_id?: string;
	    payload_id: string;
	    payload_content_id: string;
	    payload_submission_id: string;
	    created: boolean;
	    moved?: boolean;
	    message: string;
	    entity_ids: string[];
	    entities: EntityRef[];
	    relationship_ids: string[];
	    document_id?: string;
	    phases?: Record<string, string>;
	}

}

export namespace lint {
	
	export interface Checked {
	    subjects: number;
	    rechecked: number;
	    full: boolean;
	}
	export interface Evidence {
	    document_id?: string;
	    entity_id?: string;
	    path?: string;
	    title?: string;
	    line_start?: number;
	    line_end?: number;
	    page?: number;
	    quote?: string;
	    date?: string;
	    source?: string;
	}
	export interface Finding {
	    id: string;
	    kind: string;
	    severity: string;
	    scope: string;
	    title: string;
	    entity_id?: string;
	    entity_name?: string;
	    document_ids: string[];
	    field?: string;
	    values?: Value[];
	    evidence: Evidence[];
	    hint: string;
	    fixes?: Fix[];
	}
	export interface Fix {
	    action: string;
	    label: string;
	    document_id?: string;
	    line?: number;
	    entity_id?: string;
	    relationship_type?: string;
	    source_entity_id?: string;
	    target_entity_id?: string;
	}
	export interface Value {
	    value: number[];
	    shown: boolean;
	    observation_id: string;
	    observed_at: string;
	    source: Evidence;
	}
	

}

export namespace search {
	
	export interface AlsoIn {
	    document_id: string;
	    path?: string;
	    title: string;
	    line_start: number;
	    line_end: number;
	    line?: number;
	    page?: number;
	}
	export interface Floor {
	    KeywordShare: number;
	    Vector: number;
	    Known: number;
	}
	export interface Fold {
	    ChunkID: string;
	    Offset: number;
	}
	export interface Passage {
	    chunk_id: string;
	    line_start: number;
	    line_end: number;
	    line?: number;
	    page?: number;
	    heading?: string;
	    snippet: string;
	    highlights: Span[];
	}
	export interface Result {
	    document_id: string;
	    path?: string;
	    title: string;
	    chunk_id: string;
	    snippet: string;
	    highlights: Span[];
	    line_start: number;
	    line_end: number;
	    line?: number;
	    page?: number;
	    heading?: string;
	    score: number;
	    modes: Record<string, number>;
	    also_in?: AlsoIn[];
	    also_in_count?: number;
	    other_passages?: Passage[];
	    other_passages_count?: number;
	}
	export interface Span {
	    start: number;
	    end: number;
	}
	export interface Weights {
	    Keyword: number;
	    Vector: number;
	    Context: number;
	    Title: number;
	    Coverage: number;
	    Document: number;
	}

}

export namespace storage {
	
	export interface Status {
	    state: string;
	    free_bytes: number;
	    data_dir: string;
	    since?: string;
	    error?: errs.Error;
	}

}

export namespace store {
	
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
	    text_start: number;
	    text_end: number;
	    lines?: number[];
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
	export interface DayCount {
	    day: string;
	    count: number;
	}
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
	    status: string;
	    phase_register: string;
	    phase_analyze: string;
	    phase_semantic: string;
	    last_error?: number[];
	    created_at: string;
	    updated_at: string;
	    changed_at: string;
	    duplicate_of_path?: string;
	    note?: string;
	    can_retry: boolean;
	}
	export interface Entity {
	    entity_id: string;
	    entity_type: string;
	    canonical_name: string;
	    identity_key: string;
	    aliases: string[];
	    created_at: string;
	}
	export interface EntityRef {
	    entity_id: string;
	    entity_type: string;
	    name: string;
	    document_id?: string;
	    path?: string;
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
	    error?: number[];
	    created_at: string;
	    updated_at: string;
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
	    fields: number[];
	    span?: number[];
	    created_at: string;
	}
	export interface Overview {
	    by_type: Record<string, number>;
	    by_status: Record<string, number>;
	    by_day: DayCount[];
	}
	export interface Relationship {
	    id: string;
	    relationship_type: string;
	    source_entity_id: string;
	    target_entity_id: string;
	    metadata?: number[];
	    source_payload_id?: string;
	    created_at: string;
	}
	export interface Suggestion {
	    id: string;
	    source_entity_id: string;
	    target_entity_id: string;
	    kind: string;
	    score: number;
	    reason: string;
	    evidence: number[];
	    enrichment: string;
	    version: string;
	    state: string;
	    relationship_id?: string;
	    decided_by?: string;
	    decided_at?: string;
	    created_at: string;
	    updated_at: string;
	}
	export interface WatchFolder {
	    path: string;
	    skipped_assets: number;
	}

}

export namespace watch {
	
	export interface Ignored {
	    files: number;
	    folders: number;
	    assets: number;
	}
	export interface RootStatus {
	    Root: string;
	    Mode: string;
	    Dirs: number;
	    Files: number;
	    Overflows: number;
	    Err: string;
	}

}

