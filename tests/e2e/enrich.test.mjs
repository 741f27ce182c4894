// End-to-end, issue 14: what Strata links by itself, seen in the browser UI. A real `strata
// serve` ingests real files (two Rust book chapters that belong together, a byte-identical copy of
// one, and a third chapter); the library says it is linking them and does not claim "All caught
// up" meanwhile; a document shows its derived links apart from asserted ones, with "why" — the
// passages — one click from the line they are on; a suggestion is accepted (it becomes a link
// and leaves the list) and another dismissed (it leaves the list and waits under Dismissed).
//
// While EmbeddingSimilarity and DiscoveryGap are skeletons (their branches are not merged), the
// links and the suggestion are written by tests/e2e/fixture from the store's real documents and
// chunks, marked version "e2e-fixture". Once the enrichments derive them, the fixture steps aside
// by itself: it runs only when the store holds no derived link of the original after enrichment.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { here, startServe, openBrowser, pageHelpers } from "./harness.mjs";

const corpus = join(here, "..", "..", "backend", "search", "quality", "testdata", "corpus");

let server, browser, page, uiURL, shot, byId, callAPI;
const data = mkdtempSync(join(tmpdir(), "strata-e2e-enrich-"));
const files = mkdtempSync(join(tmpdir(), "strata-e2e-enrich-files-"));
const ORIGINAL = "ch04-01-what-is-ownership.html";
const COPY = "ch04-01-what-is-ownership-copy.html";
const RELATED = "ch04-02-references-and-borrowing.html";
const OTHER = "ch04-03-slices.html";
const OTHER2 = "ch03-02-data-types.html";
let ids = {};

before(async () => {
  copyFileSync(join(corpus, "rust-book", ORIGINAL), join(files, ORIGINAL));
  mkdirSync(join(files, "backup"));
  copyFileSync(join(corpus, "copies", "backup", ORIGINAL), join(files, "backup", COPY)); // byte-identical
  copyFileSync(join(corpus, "rust-book", RELATED), join(files, RELATED));
  copyFileSync(join(corpus, "rust-book", OTHER), join(files, OTHER));
  copyFileSync(join(corpus, "rust-book", OTHER2), join(files, OTHER2));
  ({ server, uiURL } = await startServe(data, { STRATA_EMBEDDER: "static", OLLAMA_HOST: "127.0.0.1:1" }));
  ({ browser, page } = await openBrowser({ width: 1280, height: 860 }));
  ({ shot, byId, callAPI } = pageHelpers(page));
  await page.goto(uiURL);
  await byId("nav-library").waitFor();
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
});


test("the library says it is linking, and is not all caught up until it has", async () => {
  // The same call the desktop window makes for files dropped on it.
  const res = await callAPI("IngestPaths", [files]);
  assert.ok(res.results.length >= 1, JSON.stringify(res));
  const pending = (st) => (st.jobs.queued ?? 0) + (st.jobs.running ?? 0);
  const deadline = Date.now() + 120000;
  let sawLinking = false;
  for (let st = await callAPI("Status"); pending(st) > 0; st = await callAPI("Status")) {
    assert.ok(Date.now() < deadline, "the jobs ended within two minutes");
    // The page polls once a second: a second later it shows this status or a later one, so
    // when work is still pending then too, the page must not say it is done.
    await page.waitForTimeout(1100);
    const later = await callAPI("Status");
    if (pending(later) > 0) assert.equal(await byId("nav-caught-up").count(), 0, "'All caught up' while jobs are pending");
    const linking = page.locator('[data-testid="phase-row"][data-phase="enrich"]').first();
    if ((st.enrichments?.backlog ?? 0) > 0 && (later.enrichments?.backlog ?? 0) > 0 && (await linking.count()) > 0) {
      assert.match(await linking.innerText(), /Linking\s+[\d,]+ \/ [\d,]+/);
      if (!sawLinking) await shot("e0-library-linking");
      sawLinking = true;
    }
  }
  await byId("nav-caught-up").waitFor({ timeout: 15000 });
  assert.equal(await byId("enrich-progress").count(), 0, "no linking line once the backlog is empty");
  assert.equal(await byId("phase-row").count(), 0, "no phase listed once the work is done");
  await shot("e1-library-enriched");
});

test("a document shows what Strata found apart from what sources state, with why", async () => {
  const docs = (await callAPI("Documents", { limit: 50 })).documents;
  const orig = docs.find((d) => d.path?.endsWith("/" + ORIGINAL));
  assert.ok(orig, "the original is in the library");
  const rels = await callAPI("Relationships", orig.entity_id);
  if (!rels.relationships.some((r) => r.derived)) {
    // The enrichments are skeletons still: write the links from the store's real chunks.
    const out = execFileSync(join(here, ".bin", "fixture"), ["--data", data, ORIGINAL, COPY, RELATED, OTHER], { encoding: "utf8" });
    ids = JSON.parse(out);
    console.log("derived links written by tests/e2e/fixture (the enrichments are not merged yet)");
  }
  await page.goto(uiURL.replace(/\/\?token=.*/, "/") + `#/document/${orig.document_id}`);
  await byId("document-view").waitFor();
  const found = byId("derived-links");
  await found.waitFor({ timeout: 10000 });
  assert.match(await found.innerText(), /Found by Strata/);
  assert.match(await found.innerText(), /No source states them/);
  // Apart: no derived link is listed among what sources state.
  if (await byId("asserted-links").count()) {
    assert.doesNotMatch(await byId("asserted-links").innerText(), /SIMILAR_TO|DUPLICATE_OF/);
  }
  const similar = found.locator('[data-testid="derived-group"][data-kind="sim"]');
  await similar.waitFor();
  assert.match(await similar.innerText(), /Similar documents/i);
  const row = similar.locator('[data-testid="derived-link"]').first();
  assert.match(await row.innerText(), /similarity 0\.\d\d/);
  assert.match(await row.getAttribute("title"), /Found by EmbeddingSimilarity.*not stated by a source/);
  const dup = found.locator('[data-testid="derived-group"][data-kind="dup"]');
  assert.match(await dup.innerText(), /Duplicates \/ copies[\s\S]*copy/i);
  // "why": the passages, each cited path:line, one click from its line.
  await row.locator('[data-testid="derived-why"] summary').click();
  const ev = row.locator('[data-testid="evidence-link"]').nth(1);
  await ev.waitFor();
  const cite = await ev.innerText();
  const m = cite.match(/^([^/\s]+\.html):(\d+)$/);
  assert.ok(m, `evidence cites path:line: ${cite}`);
  await shot("e2-document-found-by-strata");
  await ev.click();
  await page.waitForURL(new RegExp(`#/document/[^?]+\\?line=${m[2]}$`));
  await page.locator(`[data-testid="document-view"] h1`).waitFor();
  await page.waitForFunction((file) => document.querySelector('[data-testid="document-view"] .path')?.textContent.includes(file), m[1]);
  const line = page.locator(`#L${m[2]}`);
  await line.waitFor({ timeout: 10000 });
  await page.waitForFunction((id) => document.getElementById(id)?.classList.contains("flash"), `L${m[2]}`, { timeout: 5000 });
  await shot("e3-evidence-passage");
});

test("a suggestion is accepted: it becomes a link and leaves the list; another is dismissed", async () => {
  const badge = byId("suggestions-badge");
  await badge.waitFor({ timeout: 10000 });
  const before = Number(await badge.innerText());
  assert.ok(before >= 1, "the sidebar counts open suggestions");
  await byId("nav-suggestions").click();
  await byId("suggestions-view").waitFor();
  const item = byId("suggestion").first();
  await item.waitFor({ timeout: 10000 });
  const text = await item.innerText();
  assert.match(text, /nothing links them/);
  assert.equal(await item.locator('[data-testid="suggestion-end"]').count(), 2, "both ends, clickable");
  await item.locator('[data-testid="suggestion-why"] summary').click();
  assert.match(await item.locator('[data-testid="evidence-link"]').first().innerText(), /\.html:\d+$/);
  await shot("e4-suggestions");
  const id = await item.getAttribute("data-suggestion-id");
  await item.locator('[data-testid="suggestion-accept"]').click();
  await page.locator('[data-testid="toast"]', { hasText: "Linked: RELATED_TO" }).waitFor({ timeout: 10000 });
  await page.locator(`[data-suggestion-id="${id}"]`).waitFor({ state: "detached", timeout: 10000 });
  // Accepted: listed under its tab as linked, and the link is asserted now.
  await byId("suggestions-tab-accepted").click();
  const accepted = page.locator(`[data-suggestion-id="${id}"]`);
  await accepted.waitFor({ timeout: 10000 });
  assert.match(await accepted.innerText(), /Linked: RELATED_TO/);
  await shot("e5-suggestion-accepted");
  const sug = (await callAPI("Suggestions", "accepted")).suggestions.find((s) => s.id === id);
  const rels = await callAPI("Relationships", sug.source_entity_id);
  assert.ok(rels.relationships.some((r) => r.relationship_type === "RELATED_TO" && !r.derived), "an asserted RELATED_TO");
});

test("a dismissed suggestion leaves the list and waits under Dismissed", async () => {
  // A second suggestion from the fixture, between the related chapter and another one.
  const docs = (await callAPI("Documents", { limit: 50 })).documents;
  if (!(await callAPI("Suggestions", "open")).suggestions.length) {
    execFileSync(join(here, ".bin", "fixture"), ["--data", data, ORIGINAL, COPY, RELATED, OTHER2], { encoding: "utf8" });
  }
  assert.ok(docs.length >= 4);
  await byId("suggestions-tab-open").click();
  // Only an open one: until the Open tab has loaded, the list on screen is still the Accepted
  // tab's (reading "the first suggestion" then took the accepted one's ID). The button is then
  // found by that ID, not by position, so a reload of the list cannot move the click.
  const first = page.locator('[data-testid="suggestion"][data-state="open"]').first();
  await first.waitFor({ timeout: 15000 });
  const id = await first.getAttribute("data-suggestion-id");
  const item = page.locator(`[data-suggestion-id="${id}"]`);
  await item.locator('[data-testid="suggestion-dismiss"]').click();
  await page.locator('[data-testid="toast"]', { hasText: "Dismissed" }).waitFor({ timeout: 10000 });
  await page.locator(`[data-suggestion-id="${id}"]`).waitFor({ state: "detached", timeout: 10000 });
  await byId("suggestions-tab-dismissed").click();
  await page.waitForURL(/state=dismissed/, { timeout: 10000 });
  const dismissed = page.locator(`[data-suggestion-id="${id}"][data-state="dismissed"]`);
  await dismissed.waitFor({ timeout: 10000 });
  await shot("e6-suggestion-dismissed");
});
