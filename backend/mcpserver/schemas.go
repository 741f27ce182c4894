package mcpserver

// Tool descriptions and input schemas. They are the whole contract an agent sees, so they say
// what each tool is for, when to use it, and what every field means; tools_list.golden.json
// pins them so that any change to the surface is deliberate.
//
// The polymorphic tools (entity, relationships, knowledge) take a flat object with an `action` enum rather
// than a top-level oneOf: several clients (Anthropic's API among them) reject oneOf/anyOf at
// the top of a tool's input schema. Which fields each action needs is stated in the
// descriptions and enforced by the handlers, which name the missing field.

const ingestDesc = `Store something in Strata (the only write tool). Pass one JSON object as data:
- {"text": "...", "title"?, "tags"?: [...]} stores a note or any text; it is chunked and searchable at once.
- {"file_path": "/abs/path"} reads a file (PDF, DOCX, Markdown, HTML, text, CSV, JSON, code) inside a watched folder or allowed root; it is registered at once and analysed in the background (poll index_status or search later).
- {"capability_id": "strata:store_invoice:v1", "body": {...}, "provenance": {...}} submits a structured payload (invoice, transaction, receipt, contract, note, meeting); its entities, observations and relationships are derived by the capability's spec.
index_status lists every input kind with the fields it needs ("input_kinds"), including capabilities and semantic specs added as YAML.
Resubmitting identical content returns the same IDs with created=false. The result lists payload, entity and relationship IDs and, for files, the document ID and per-phase status.`

const ingestSchema = `{
  "type": "object",
  "properties": {
    "data": {"type": "object", "description": "The object to store: {text, ...}, {file_path}, {capability_id, body, provenance}, or JSON matching a registered capability."},
    "input_kind": {"type": "string", "description": "Optional: force the route instead of letting Strata classify data: auto, content, extract-file, payload, or a capability ID such as strata:store_invoice:v1."}
  },
  "required": ["data"],
  "additionalProperties": false
}`

const searchDesc = `Search everything Strata holds (documents, notes, files) and get cited passages: each result has document_id, path, title, chunk_id, a snippet (plain text: the prose around the best matches, no markup and no markers) with highlights, the matched words as [{start, end}] offsets into the snippet counted in UTF-16 code units (as JavaScript slices; equal to character offsets for ASCII), line_start/line_end (the passage) and line (the line of the words the snippet shows: cite this one), page and heading, the fused score and which modes found it (keyword, vector) with their scores.
Results are documents, best first, each cited by its best passage; other_passages lists up to 5 more places of the same document that the query found (chunk_id, line_start/line_end, line, page, heading, snippet, highlights; in document order) and other_passages_count counts them all, so one result tells you where else to read. A passage that several documents hold (a chapter and the whole book on one page, a file and its copy, a text and its PDF or HTML export) is one result citing the most specific document, with also_in (the others: document_id, path, title, line_start/line_end, line, page) and also_in_count. Results with too little evidence (few of the query's telling words, no real nearness in meaning) are left out: "dropped" counts them and "notice" says so; an empty result list means nothing matched well enough, not that the store is empty.
The answer's "embedder" block says which embedder really answered: when is_fallback_active is true (static hash vectors, semantic_quality "low"), prefer specific keywords and names from the documents; when semantic_quality is "high" (Ollama), natural-language questions work well.
Read a whole document with the resource strata://documents/{document_id}.`

const searchSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "description": "What to look for: key words or a question, at most 2000 characters and 64 distinct words (longer is refused with VALIDATION_ERROR naming the limit). Words are matched with stemming; \"quoted words\" stay a phrase."},
    "mode": {"type": "string", "enum": ["hybrid", "keyword", "semantic"], "description": "hybrid (default) fuses keyword (BM25) and vector search; keyword or semantic use one half."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results to return, 1–100; omit it for the default 10 (0 is refused with VALIDATION_ERROR)."},
    "filters": {
      "type": "object",
      "description": "Narrow the search to some documents.",
      "properties": {
        "type": {"type": "string", "description": "Document type found in analysis: invoice, contract, meeting-notes, receipt, ..."},
        "path": {"type": "string", "description": "Path prefix of the files to search."},
        "tag": {"type": "string", "description": "A tag (front matter or #hashtag)."},
        "mime": {"type": "string", "description": "MIME type, e.g. application/pdf."},
        "from": {"type": "string", "format": "date", "description": "Modified on or after (YYYY-MM-DD)."},
        "to": {"type": "string", "format": "date", "description": "Modified on or before (YYYY-MM-DD)."},
        "per_document": {"type": "boolean", "description": "At most one result per document (results are one per document either way; kept for compatibility)."}
      },
      "additionalProperties": false
    }
  },
  "required": ["query"],
  "additionalProperties": false
}`

const entityDesc = `Read entities (people, companies, invoices, documents, concepts, ...) and why Strata believes what it does. Choose an action:
- get: the entity's current snapshot (entity_id; optional at = RFC 3339 time or YYYY-MM-DD for the snapshot as it was then).
- observations: the observations behind it, newest first (entity_id; limit, offset).
- provenance: where one field's value came from: observation, payload, source document and line, and the competing values (entity_id, field).
- list: find entities (optional type, query matching name or alias; limit, offset).`

const entitySchema = `{
  "type": "object",
  "properties": {
    "action": {"type": "string", "enum": ["get", "observations", "provenance", "list"], "description": "What to do; see the tool description for the fields each action uses."},
    "entity_id": {"type": "string", "description": "ent_... ID (get, observations, provenance)."},
    "at": {"type": "string", "description": "get only: snapshot at this time (RFC 3339 or YYYY-MM-DD)."},
    "field": {"type": "string", "description": "provenance only: the snapshot field."},
    "type": {"type": "string", "description": "list only: entity type, e.g. person, company, invoice."},
    "query": {"type": "string", "description": "list only: text matched against names and aliases."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Page size, 1–1000; omit it for the default 100 (0 is refused with VALIDATION_ERROR)."},
    "offset": {"type": "integer", "minimum": 0, "description": "Items to skip."}
  },
  "required": ["action"],
  "additionalProperties": false
}`

const relationshipsDesc = `Typed links between entities. Choose an action:
- create: link two entities (relationship_type: CORRECTS, DEPENDS_ON, DUPLICATE_OF, PART_OF, REFERS_TO, RELATED_TO, SETTLES or SUPERSEDES; source_entity_id; target_entity_id; optional metadata object). The same link twice returns the stored one with created=false; a cycle in PART_OF, DEPENDS_ON or SUPERSEDES is refused (CYCLE_DETECTED).
- list: an entity's links (entity_id; optional direction inbound|outbound|both, relationship_type, derived, enrichment, min_score, limit, offset). Asserted links first, then those Strata derived (derived: true, enrichment name@version, score 0–1, evidence); both ends named (source, target).
- suggestions: pairs that look related but nothing links, strongest first (reason, score, evidence; limit, offset).
- accept: assert a suggestion's link (suggestion_id; optional relationship_type, default RELATED_TO). dismiss: reject it (suggestion_id). Decisions are remembered.`

const relationshipsSchema = `{
  "type": "object",
  "properties": {
    "action": {"type": "string", "enum": ["create", "list", "suggestions", "accept", "dismiss"], "description": "What to do; see the tool description for the fields each action uses."},
    "relationship_type": {"type": "string", "enum": ["CONTAINED_IN", "CORRECTS", "CO_OCCURS_WITH", "DEPENDS_ON", "DUPLICATE_OF", "NEAR_IN_TIME", "PART_OF", "REFERS_TO", "RELATED_TO", "SETTLES", "SIMILAR_TO", "SUPERSEDES"], "description": "create, accept: the link's type (asserted types only); list: only links of this type, derived types too."},
    "source_entity_id": {"type": "string", "description": "create only: ent_... the link starts from."},
    "target_entity_id": {"type": "string", "description": "create only: ent_... the link points to."},
    "metadata": {"type": "object", "description": "create only: extra facts about the link."},
    "entity_id": {"type": "string", "description": "list only: the entity whose links to list."},
    "direction": {"type": "string", "enum": ["inbound", "outbound", "both"], "description": "list only (default both)."},
    "derived": {"type": "boolean", "description": "list only: true for derived links only, false for asserted only; omit for both."},
    "enrichment": {"type": "string", "description": "list only: derived links of this enrichment (TagConceptBridger, CoOccurrence, EmbeddingSimilarity, DiscoveryGap, TemporalProximity)."},
    "min_score": {"type": "number", "minimum": 0, "maximum": 1, "description": "list only: drop derived links scoring below this (asserted links stay)."},
    "suggestion_id": {"type": "string", "description": "accept, dismiss: sug_... from suggestions."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Page size, 1–1000; omit it for the default 100 (0 is refused with VALIDATION_ERROR)."},
    "offset": {"type": "integer", "minimum": 0, "description": "Items to skip."}
  },
  "required": ["action"],
  "additionalProperties": false
}`

const indexStatusDesc = `What Strata holds and how it is answering, exactly as ` + "`strata status --json`" + `: counts of documents (by status), chunks, entities, observations and relationships; jobs by state; watched folders; and the "embeddings" block: configured provider/model, actual_provider/actual_model/dimensions, is_fallback_active, semantic_quality (high|low), status (ready | building | waiting: the configured space is incomplete and nothing builds it, Ollama not answering) and reembed progress (done/total); "input_kinds": every shape ingest accepts (content, extract-file, the payload envelope, each capability with its body fields and the keys that route bare JSON to it, each semantic spec with its required fields); "storage": state (ok|full|failing), free_bytes, data_dir and, on a fault, the error with its hint (on a full disk analysis pauses and resumes by itself when space returns); and "enrichments": each enrichment's name, version, enabled, links and open suggestions, with the backlog of documents still to enrich. Call it before ingesting to see what Strata can take, before searching to choose how to phrase queries, and after ingesting files to see whether analysis has finished.`

const indexStatusSchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

const knowledgeDesc = `Cited answers and a health check over what Strata holds. Choose an action:
- ask: answer a question from the store (question; optional max_passages 1–20, default 8; format markdown|summary_with_sources; filters as search's; persist). Returns answer (each sentence ends with its [n]), citations [{n, document_id, path, title, line_start, line_end, page, chunk_id, quote}], facts (snapshot values of the entities the question names: entity_id, field, value, observation_id, path, line), mode (extractive; or llm with a local chat model, every sentence checked against the passages it cites, failures removed and listed in unsupported), and, when no passage says what the question asks (its identifiers, names and most of its words, as words: not stems), answer "" with a notice "not found: …" naming what is missing and closest [{document_id, path, title, line_start, line_end, snippet, missing}] — passages to read on, not an answer. persist: true files the answer into the store as a document citing its sources (same question, same store: same answer and document_id).
  Use ask for a direct answer with its sources; use search to explore, to see many passages or to find documents.
- lint: what in the store does not hold together (optional scope all|entities|documents|concepts; staleness_days 1–3650, default 90; kind; limit, offset; publish). Findings in a fixed order (severity, kind, ID), each with kind, severity, title, values (each with its source path:line; shown: true for the one the snapshot shows today), evidence, hint and fixes (open a document at a line, or a link to assert with relationships create). Kinds: contradiction (one field given different values by sources nothing reconciles), stale (a value a much newer source no longer restates; a superseded document), missing_link (a document names a known entity without a link to it), undocumented_concept (a concept several documents use and none explains), orphan (an entity or document nothing connects). counts: findings per kind. publish: true writes the report into the store as a document (document_id).
Only persist and publish add documents. An argument of the other action is a VALIDATION_ERROR naming it.`

const knowledgeSchema = `{
  "type": "object",
  "properties": {
    "action": {"type": "string", "enum": ["ask", "lint"], "description": "ask: a cited answer to a question; lint: a health check of the store. See the tool description for the fields each action takes."},
    "question": {"type": "string", "minLength": 1, "description": "ask only (required): the question, at most 2000 characters."},
    "max_passages": {"type": "integer", "minimum": 1, "maximum": 20, "description": "ask only: passages the answer may rest on, 1–20; omit it for 8."},
    "format": {"type": "string", "enum": ["markdown", "summary_with_sources"], "description": "ask only: markdown (default) is the answer's sentences with [n]; summary_with_sources adds one \"[n] path:line\" line per citation."},
    "filters": {
      "type": "object",
      "description": "ask only: answer from some documents only (as search's filters).",
      "properties": {
        "type": {"type": "string", "description": "Document type found in analysis: invoice, contract, meeting-notes, receipt, ..."},
        "path": {"type": "string", "description": "Path prefix of the files to use."},
        "tag": {"type": "string", "description": "A tag (front matter or #hashtag)."},
        "mime": {"type": "string", "description": "MIME type, e.g. application/pdf."},
        "from": {"type": "string", "format": "date", "description": "Modified on or after (YYYY-MM-DD)."},
        "to": {"type": "string", "format": "date", "description": "Modified on or before (YYYY-MM-DD)."}
      },
      "additionalProperties": false
    },
    "persist": {"type": "boolean", "description": "ask only: file the answer back into the store as a document citing its sources (default false)."},
    "scope": {"type": "string", "enum": ["all", "entities", "documents", "concepts"], "description": "lint only: what to check (default all)."},
    "staleness_days": {"type": "integer", "minimum": 1, "maximum": 3650, "description": "lint only: how much older than a newer source a value must be to count as stale, 1–3650; omit it for 90."},
    "kind": {"type": "string", "enum": ["contradiction", "stale", "missing_link", "undocumented_concept", "orphan"], "description": "lint only: findings of this kind only (counts still give every kind)."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "lint only: page size, 1–1000; omit it for the default 100 (0 is refused with VALIDATION_ERROR)."},
    "offset": {"type": "integer", "minimum": 0, "description": "lint only: findings to skip."},
    "publish": {"type": "boolean", "description": "lint only: write the report into the store as a document (searchable, with history) and return its document_id (default false)."}
  },
  "required": ["action"],
  "additionalProperties": false
}`
