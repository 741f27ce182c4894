// End-to-end, issue 15: ask and lint, seen in the browser UI. Real files (tests/e2e/testdata/
// knowledge): a survey note that answers a question, two versions of one invoice that state
// different amounts, and call notes that name the vendor without a link to it. The invoices are
// read into entities by the semantic phase, as a local model would read them (fake-ollama.mjs
// reads the text it is sent), during `strata ingest --wait`; `strata serve` then runs with no
// model, so answers are extractive.
//
// A person asks a question and gets an answer with a citation; the citation opens the document
// at the cited line, highlighted; the answer is saved as a document. On the Health screen the
// two amounts are one contradiction, each value with its source and the one shown today; the
// call notes' missing link is created with one click and the finding is gone; marking the
// corrected invoice as correcting the first makes the contradiction go; the report is published
// as a document.
// Screenshots in tests/e2e/artifacts/k*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { here, strataBin, startServe, openBrowser, pageHelpers } from "./harness.mjs";
import { startFakeOllama } from "./fake-ollama.mjs";

const bin = strataBin;

let server, browser, page, uiURL, shot, byId, callAPI, base;
const data = mkdtempSync(join(tmpdir(), "strata-e2e-knowledge-"));
const files = mkdtempSync(join(tmpdir(), "strata-e2e-knowledge-files-"));
const QUESTION = "How many nests did the heron colony have?";

before(async () => {
  cpSync(join(here, "testdata", "knowledge"), files, { recursive: true });
  // The semantic phase reads the invoices with the fake model; it runs inside this command
  // (async, so the fake, in this process, can answer).
  const ollama = await startFakeOllama();
  try {
    await promisify(execFile)(bin, ["--data", data, "ingest", "--wait", files], {
      env: { ...process.env, STRATA_EMBEDDER: "static", OLLAMA_HOST: ollama.url, STRATA_CHAT_MODEL: "llama3.2" },
    });
  } finally {
    await ollama.close();
  }
  assert.equal(ollama.chats.length, 2, "the model read both invoices");
  ({ server, uiURL } = await startServe(data, { STRATA_EMBEDDER: "static", OLLAMA_HOST: "127.0.0.1:1" }));
  base = uiURL.replace(/\/\?token=.*/, "/");
  ({ browser, page } = await openBrowser({ width: 1280, height: 860 }));
  ({ shot, byId, callAPI } = pageHelpers(page));
  await page.goto(uiURL);
  await byId("nav-library").waitFor();
  // Enrichments run in the background after ingest: lint reads what they link, so wait until
  // the queue is empty.
  const deadline = Date.now() + 60000;
  for (let st = await callAPI("Status"); (st.jobs.queued ?? 0) + (st.jobs.running ?? 0) > 0; st = await callAPI("Status")) {
    assert.ok(Date.now() < deadline, "the background jobs ended within a minute");
    await page.waitForTimeout(300);
  }
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
});


test("ask: an answer with a citation that opens the passage, highlighted, and Save answer", async () => {
  await page.keyboard.press("/");
  const input = byId("search-input");
  await input.waitFor();
  await input.fill(QUESTION);
  await page.keyboard.press("Control+Enter");
  const text = byId("answer-text");
  await text.waitFor({ timeout: 15000 });
  assert.match(await text.innerText(), /42 nests/, "the answer says it");
  assert.match(page.url(), /#\/search\?q=.*&ask=1$/, "the address keeps the question asked");
  assert.equal(await byId("answer-mode").innerText(), "extractive");
  const cite = byId("answer-citation").first();
  assert.match(await cite.innerText(), /^\[1\]$/);
  const src = byId("answer-source").first();
  assert.match(await src.innerText(), /\[1\][\s\S]*Heron survey 2025[\s\S]*heron-survey\.md:\d+/);
  assert.match(await src.innerText(), /42 nests/, "the source quotes the words");
  await shot("k1-ask");

  // The citation opens the document at the cited line, highlighted.
  const { citations } = await callAPI("Ask", { question: QUESTION });
  const c = citations[0];
  await cite.click();
  await page.waitForURL(new RegExp(`#/document/${c.document_id}\\?line=${c.line_start}$`));
  await byId("document-text").waitFor();
  const line = page.locator(`#L${c.line_start}`);
  await line.waitFor({ timeout: 10000 });
  await page.waitForFunction((id) => document.getElementById(id)?.classList.contains("flash"), `L${c.line_start}`, { timeout: 5000 });
  assert.match(await line.getAttribute("class"), /target/, "the cited line stays marked");
  const cited = await page.evaluate(([a, b]) => {
    let t = "";
    for (let n = a; n <= b; n++) t += (document.getElementById(`L${n}`)?.textContent ?? "") + "\n";
    return t;
  }, [c.line_start, c.line_end]);
  assert.match(cited, /42 nests/, "the cited lines hold the words");
  await shot("k2-cited-line");

  // Back to the answer (the address asked it), and save it: it says what it created.
  await page.goBack();
  await byId("answer-text").waitFor({ timeout: 15000 });
  await byId("answer-save").click();
  const saved = byId("answer-saved");
  await saved.waitFor({ timeout: 15000 });
  assert.match(await saved.innerText(), /Saved as a document citing its sources/);
  const docHref = await saved.locator("a").getAttribute("href");
  const docID = docHref.match(/#\/document\/([^?]+)/)[1];
  const doc = await callAPI("Document", docID);
  assert.match(doc.path ?? "", /generated/, "the answer is a document Strata wrote");
  await shot("k3-ask-saved");
  // The same question again: the same document, said so.
  const again = await callAPI("Ask", { question: QUESTION, persist: true });
  assert.equal(again.document_id, docID, JSON.stringify(again));
  assert.equal(again.created, false);
});

test("ask: a question nothing answers says so", async () => {
  await page.goto(base + "#/search");
  await byId("search-input").fill("zqxjv wombat tariffs");
  await byId("ask-button").click();
  const empty = byId("answer-empty");
  await empty.waitFor({ timeout: 15000 });
  assert.match(await empty.innerText(), /Not found: nothing in the store answers this/);
  // the closest passages, marked as no answer, each with what it does not say
  assert.match(await byId("answer-closest").innerText(), /does not say “/);
  assert.equal(await byId("answer-save").count(), 0, "nothing to save");
  await shot("k4-ask-nothing");
});

test("health: the contradiction, with both values, their sources and the one shown today", async () => {
  await byId("nav-health").click();
  await byId("health-view").waitFor();
  const tab = byId("health-tab-contradiction");
  await tab.waitFor({ timeout: 15000 });
  assert.ok(Number(await tab.getAttribute("data-count")) >= 1, "a contradiction is counted");
  await tab.click();
  await page.waitForURL(/#\/health\?kind=contradiction$/);
  const f = page.locator('[data-testid="finding"][data-kind="contradiction"]', { hasText: "amount" }).first();
  await f.waitFor({ timeout: 10000 });
  assert.equal(await f.getAttribute("data-severity"), "high");
  const values = f.locator('[data-testid="finding-value"]');
  assert.equal(await values.count(), 2, "both values");
  const rows = await values.allInnerTexts();
  assert.ok(rows.some((r) => /1500/.test(r) && /acme-invoice-march\.md/.test(r)), rows.join("\n"));
  assert.ok(rows.some((r) => /1540/.test(r) && /acme-invoice-march-corrected\.md/.test(r)), rows.join("\n"));
  assert.equal(await f.locator('[data-testid="shown-today"]').count(), 1, "one value is the snapshot's today");
  assert.match(await byId("kind-blurb").innerText(), /different values from different sources/);
  await shot("k5-health-contradiction");

  // A value's source opens the document at its line.
  const source = values.first().locator('[data-testid="value-source"]');
  const m = (await source.getAttribute("href")).match(/#\/document\/[^?]+(\?line=(\d+))?$/);
  assert.ok(m, await source.getAttribute("href"));
  await source.click();
  await byId("document-view").waitFor();
  if (m[2]) await page.waitForFunction((id) => document.getElementById(id)?.classList.contains("target"), `L${m[2]}`, { timeout: 10000 });
  assert.match(await page.locator('[data-testid="document-view"] .path').innerText(), /acme-invoice-march/);
  await page.goBack();
  await f.waitFor({ timeout: 10000 });
});

test("health: a missing link is created with one click, and the finding is gone", async () => {
  await byId("health-tab-missing_link").click();
  await page.waitForURL(/kind=missing_link/);
  const f = page.locator('[data-testid="finding"][data-kind="missing_link"]', { hasText: "Acme GmbH" }).filter({ hasText: "call-notes.md" }).first();
  await f.waitFor({ timeout: 10000 });
  const id = await f.getAttribute("data-finding-id");
  const before = Number(await byId("health-tab-missing_link").getAttribute("data-count"));
  const fix = f.locator('[data-testid="finding-fix"][data-action="create_relationship"]');
  assert.match(await fix.innerText(), /^Link (\S+\/)?call-notes\.md to Acme GmbH$/);
  await shot("k6-health-missing-link");
  await fix.click();
  await byId("fix-resolved").first().waitFor({ timeout: 15000 });
  await page.locator(`[data-finding-id="${id}"]`).waitFor({ state: "detached", timeout: 10000 });
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="health-tab-missing_link"]')?.getAttribute("data-count")) === n - 1,
    before,
    { timeout: 10000 },
  );
  // The link is there, asserted.
  const report = await callAPI("Lint", { kind: "missing_link" });
  assert.ok(!report.findings.some((x) => x.id === id), "lint no longer reports it");
  await shot("k7-health-fixed");
});

test("health: the report is published as a document; marking one invoice as correcting the other resolves the contradiction", async () => {
  await byId("health-tab-contradiction").click();
  const f = page.locator('[data-testid="finding"][data-kind="contradiction"]', { hasText: "amount" }).first();
  await f.waitFor({ timeout: 10000 });
  const title = (await f.locator("h2").innerText()).trim();

  // Published while the contradiction stands: the report names it.
  await byId("publish-report").click();
  const pub = byId("published");
  await pub.waitFor({ timeout: 15000 });
  assert.match(await pub.innerText(), /Report published as a document/);
  await pub.locator("a").click();
  await byId("document-view").waitFor();
  await byId("document-text").waitFor();
  const report = await byId("document-text").innerText();
  assert.match(report, /contradiction: 1/);
  assert.ok(report.includes("INV-42"), "the report names the contradiction");
  assert.match(await page.locator('[data-testid="document-view"] .path').innerText(), /generated/);
  await shot("k8-report-document");
  await page.goBack();

  await f.waitFor({ timeout: 10000 });
  assert.equal((await f.locator("h2").innerText()).trim(), title);
  const id = await f.getAttribute("data-finding-id");
  // The corrected invoice corrects the first: keep its amount.
  const fix = f.locator('[data-testid="finding-fix"][data-action="create_relationship"]', { hasText: "Keep 1540" });
  assert.match(await fix.innerText(), /^Keep 1540: mark (\S+\/)?acme-invoice-march-corrected\.md as correcting (\S+\/)?acme-invoice-march\.md$/);
  await fix.click();
  await byId("fix-resolved").first().waitFor({ timeout: 15000 });
  await page.locator(`[data-finding-id="${id}"]`).waitFor({ state: "detached", timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="health-tab-contradiction"]')?.getAttribute("data-count") === "0", null, {
    timeout: 10000,
  });
  await shot("k9-health-contradiction-resolved");
});
