// Usage: node compat.mjs <strata binary> <data dir> <http url> <token>
// Connects with the official MCP TypeScript SDK over stdio (launching `strata mcp`) and over
// streamable HTTP, lists the tools, ingests a note, finds it with search, asks about it and runs
// the health check (knowledge: ask and lint), checking the structured answers' shapes. Exits
// non-zero on any failure, printing what went wrong.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [bin, dataDir, url, token] = process.argv.slice(2);
const want = ["entity", "index_status", "ingest", "knowledge", "relationships", "search"];

function fail(msg) {
  console.error("FAIL: " + msg);
  process.exit(1);
}

async function exercise(label, transport, word) {
  const client = new Client({ name: "ts-sdk-compat", version: "1.0.0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  if (JSON.stringify(names) !== JSON.stringify(want)) fail(`${label}: tools ${names}`);
  for (const t of tools) {
    if (!t.description || t.inputSchema?.type !== "object") fail(`${label}: tool ${t.name} lacks a description or schema`);
  }
  const ing = await client.callTool({ name: "ingest", arguments: { data: { text: `The ${word} is a rare bird of the marshes.`, title: word } } });
  if (ing.isError || ing.structuredContent?.created !== true) fail(`${label}: ingest ${JSON.stringify(ing)}`);
  const found = await client.callTool({ name: "search", arguments: { query: word, limit: 3 } });
  const top = found.structuredContent?.results?.[0];
  // The snippet is plain text; highlights are UTF-16 offsets, which is how JavaScript slices.
  const marked = (top?.highlights ?? []).map((h) => top.snippet.slice(h.start, h.end));
  if (found.isError || top?.title !== word || top.snippet.includes("«") || !marked.includes(word)) fail(`${label}: search ${JSON.stringify(found)}`);
  if (found.structuredContent.embedder?.actual_provider === undefined) fail(`${label}: no embedder block`);
  // knowledge ask: a cited answer, every citation pointing at a passage with its lines.
  const asked = await client.callTool({ name: "knowledge", arguments: { action: "ask", question: `What is the ${word}?`, max_passages: 4 } });
  const a = asked.structuredContent;
  if (asked.isError || typeof a?.answer !== "string" || !Array.isArray(a.citations) || !Array.isArray(a.facts) || !Array.isArray(a.unsupported) ||
      !["extractive", "llm"].includes(a.mode)) fail(`${label}: ask shape ${JSON.stringify(asked)}`);
  if (!a.answer.includes("marshes") || !a.answer.includes("[1]") || a.citations.length === 0) fail(`${label}: ask answer ${JSON.stringify(a)}`);
  for (const c of a.citations) {
    if (!Number.isInteger(c.n) || !c.document_id || !c.chunk_id || !Number.isInteger(c.line_start) || typeof c.quote !== "string" || typeof c.title !== "string")
      fail(`${label}: citation shape ${JSON.stringify(c)}`);
  }
  if (JSON.parse(asked.content[0].text).answer !== a.answer) fail(`${label}: ask text and structured content differ`);
  // knowledge lint: a page of findings with the counts of every kind.
  const linted = await client.callTool({ name: "knowledge", arguments: { action: "lint", limit: 5 } });
  const l = linted.structuredContent;
  const kinds = ["contradiction", "stale", "missing_link", "undocumented_concept", "orphan"];
  if (linted.isError || !Array.isArray(l?.findings) || l.limit !== 5 || l.offset !== 0 || !Number.isInteger(l.total) || typeof l.counts !== "object" ||
      kinds.some((k) => !Number.isInteger(l.counts[k]))) fail(`${label}: lint shape ${JSON.stringify(linted)}`);
  for (const f of l.findings) {
    if (!kinds.includes(f.kind) || !f.title || !f.severity || !Array.isArray(f.evidence) || !Array.isArray(f.document_ids) || typeof f.hint !== "string")
      fail(`${label}: finding shape ${JSON.stringify(f)}`);
  }
  const foreign = await client.callTool({ name: "knowledge", arguments: { action: "ask", question: "x", scope: "all" } });
  if (!foreign.isError || !foreign.content[0].text.includes('"field":"scope"')) fail(`${label}: a lint argument on ask ${JSON.stringify(foreign)}`);
  const bad = await client.callTool({ name: "entity", arguments: { action: "nope" } });
  if (!bad.isError || !bad.content[0].text.includes('"VALIDATION_ERROR"')) fail(`${label}: error envelope ${JSON.stringify(bad)}`);
  await client.close();
  console.log(`${label}: ok (${tools.length} tools, found ${top.document_id}, answered with ${a.citations.length} citation(s), ${l.total} finding(s))`);
}

await exercise("stdio", new StdioClientTransport({ command: bin, args: ["mcp", "--data", dataDir], env: { ...process.env, STRATA_EMBEDDER: "static", OLLAMA_HOST: "127.0.0.1:1" }, stderr: "ignore" }), "bittern");
await exercise("http", new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }), "avocet");
