// A stand-in for a local Ollama that only knows how to read invoices: the semantic phase sends
// an invoice's numbered chunks with the spec's prompt, and this answers with the fields the text
// states (the same JSON a real model is asked for, with "_evidence" naming the chunk each came
// from). It reads the text, so two invoices that state different amounts get different answers:
// what the Health screen's contradiction rests on is what the files say. Any other request (no
// embeddings, no other prompt) is refused, so nothing else quietly depends on it.
import { createServer } from "node:http";

/** The invoice fields a line of text states, with the chunk it is in. */
export function readInvoice(prompt) {
  const fields = {};
  const evidence = {};
  let chunk = 0;
  for (const line of prompt.split("\n")) {
    const c = line.match(/^\[chunk (\d+)\]$/);
    if (c) {
      chunk = Number(c[1]);
      continue;
    }
    const put = (k, v) => {
      if (fields[k] === undefined) {
        fields[k] = v;
        evidence[k] = chunk;
      }
    };
    let m;
    if ((m = line.match(/Invoice (INV-\d+) from ([^(]+?)\s*(\(|$)/))) {
      put("invoice_number", m[1]);
      put("vendor_name", m[2]);
    }
    if ((m = line.match(/^Date: (\d{4}-\d{2}-\d{2})/))) put("date", m[1]);
    if ((m = line.match(/^Customer: (.+)$/))) put("customer_name", m[1].trim());
    if ((m = line.match(/Amount due: ([A-Z]{3}) ([\d,]+\.\d\d)/))) {
      put("currency", m[1]);
      put("amount", Number(m[2].replace(/,/g, "")));
    }
  }
  return { ...fields, _evidence: evidence };
}

/** Starts the fake on a free loopback port; resolves to { url, host, close, chats }. */
export function startFakeOllama() {
  const chats = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (b) => (body += b));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/api/tags") {
        res.end(JSON.stringify({ models: [{ name: "llama3.2:latest", model: "llama3.2:latest", size: 1 }] }));
        return;
      }
      if (req.method === "POST" && req.url === "/api/chat") {
        const r = JSON.parse(body);
        const [system, user] = r.messages ?? [];
        if (!/You read invoices/.test(system?.content ?? "")) {
          res.writeHead(500).end(JSON.stringify({ error: "the fake model only reads invoices" }));
          return;
        }
        chats.push(r);
        const content = JSON.stringify(readInvoice(user?.content ?? ""));
        res.end(JSON.stringify({ model: r.model, created_at: "2025-01-01T00:00:00Z", message: { role: "assistant", content }, done: true }));
        return;
      }
      res.writeHead(404).end("not found");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, chats, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
