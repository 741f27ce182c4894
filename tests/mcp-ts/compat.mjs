// Usage: node compat.mjs <strata binary> <data dir> <http url> <token>
// Connects with the official MCP TypeScript SDK over stdio (launching `strata mcp`) and over
// streamable HTTP, lists the tools, ingests a note and finds it with search. Exits non-zero on
// any failure, printing what went wrong.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [bin, dataDir, url, token] = process.argv.slice(2);
const want = ["entity", "index_status", "ingest", "relationships", "search"];

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
  const bad = await client.callTool({ name: "entity", arguments: { action: "nope" } });
  if (!bad.isError || !bad.content[0].text.includes('"VALIDATION_ERROR"')) fail(`${label}: error envelope ${JSON.stringify(bad)}`);
  await client.close();
  console.log(`${label}: ok (${tools.length} tools, found ${top.document_id})`);
}

await exercise("stdio", new StdioClientTransport({ command: bin, args: ["mcp", "--data", dataDir], env: { ...process.env, STRATA_EMBEDDER: "static", OLLAMA_HOST: "127.0.0.1:1" }, stderr: "ignore" }), "bittern");
await exercise("http", new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }), "avocet");
