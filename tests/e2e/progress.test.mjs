// End-to-end: adding a folder of 5,000 real-looking notes (internal/benchdata's Note(i), written
// by tests/e2e/notes) to a real `strata serve`, watched in a real Chromium. The page must show
// each phase's progress — registering, analyzing, linking — with its counts moving, never "0%"
// while files are registering and never "0 running" while work goes on; documents not analysed
// yet are "pending", not "Other"; a rate and a time left only when a phase moves; and, when the
// notes are read, one line that says what happened, with the right numbers and a link to the
// failures. It stops watching once linking is visibly under way (linking 5,000 notes takes
// minutes on two cores). Figures (registration and analysis rates, the first search result) are
// printed; screenshots are kept in tests/e2e/artifacts/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { here, startServe, openBrowser, pageHelpers } from "./harness.mjs";

const N = 5000;
let server, browser, page, uiURL, shot, byId, callAPI;
const data = mkdtempSync(join(tmpdir(), "strata-e2e-progress-"));
const folder = mkdtempSync(join(tmpdir(), "strata-e2e-5k-"));

// Every file under dir (the ignore rules' own leave-outs are written apart below).
function files(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

before(async () => {
  const t0 = Date.now();
  execFileSync(join(here, ".bin", "notes"), [folder, String(N)]);
  // Five files that cannot be read, each its own bytes: three PDFs cut short, two binaries.
  for (let i = 0; i < 3; i++) writeFileSync(join(folder, `scan-${i}.pdf`), `%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages ${i} 0 R >>\nendobj\n` + "x".repeat(200 + i));
  for (let i = 0; i < 2; i++) writeFileSync(join(folder, `blob-${i}.bin`), Buffer.from(Array.from({ length: 512 }, (_, k) => (k * 31 + i * 7 + 1) % 256)));
  console.log(`# wrote ${N + 5} files in ${Date.now() - t0} ms`);
  ({ server, uiURL } = await startServe(data));
  ({ browser, page } = await openBrowser({ width: 1280, height: 900 }));
  ({ shot, byId, callAPI } = pageHelpers(page));
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
});

test("a 5,000-file folder: per-phase progress, pending types, and the import's line", async () => {
  // What the summary must say, counted here from the files themselves: a file whose bytes an
  // earlier file already has is identical to a file already here.
  const all = files(folder);
  const seen = new Set();
  let identical = 0;
  for (const f of all.filter((f) => !/\/(scan|blob)-\d\.(pdf|bin)$/.test(f))) {
    const h = createHash("sha256").update(readFileSync(f)).digest("hex");
    if (seen.has(h)) identical++;
    seen.add(h);
  }
  // Left out by the ignore rules: a hidden file and a node_modules folder.
  writeFileSync(join(folder, ".hidden-note.md"), "# hidden\n");
  mkdirSync(join(folder, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(folder, "node_modules", "pkg", "index.js"), "module.exports = 1;\n");
  const total = all.length;
  const failed = 5;
  const added = total - identical - failed;
  const fmt = (n) => n.toLocaleString("en-US");
  const want = `${fmt(total)} files: ${fmt(added)} added, ${fmt(identical)} identical to files already here, ${fmt(failed)} failed; 1 file and 1 folder ignored`;
  console.log(`# expecting: ${want}`);

  await page.goto(uiURL);
  await byId("nav-library").waitFor();
  await page.getByRole("button", { name: /Watch a folder/ }).click();
  await byId("watch-folder-input").fill(folder);

  // Watch the page while it works: each phase's rows, the whole page's text, and the types.
  const seenDone = { register: new Set(), analyze: new Set(), enrich: new Set() };
  const problems = [];
  const shots = new Set();
  let firstResultMs = null;
  let addedAt = 0;
  let registeredAt = null;
  let analysedAt = null;
  let pendingSeen = false;
  const sample = async () => {
    const s = await page.evaluate(() => ({
      rows: [...document.querySelectorAll('[data-testid="phase-row"]')].map((r) => ({
        phase: r.dataset.phase,
        done: Number(r.dataset.done),
        total: Number(r.dataset.total),
        state: r.dataset.state,
        text: r.innerText,
      })),
      text: document.body.innerText,
      pendingCells: [...document.querySelectorAll('[data-testid="doc-row"][data-status="registered"] [data-testid="doc-type"]')].map((c) => c.textContent.trim()),
      chart: document.querySelector('[data-testid="overview-chart"]')?.innerText ?? "",
    }));
    const registering = s.rows.some((r) => r.phase === "register" && r.state !== "done");
    if (/\b0\s?%/.test(s.text) && registering) problems.push("'0%' shown while files are registering");
    if (/\b0 running\b/.test(s.text)) problems.push("'0 running' shown");
    for (const r of s.rows) {
      seenDone[r.phase]?.add(r.done);
      if (r.state !== "moving" && /left/.test(r.text)) problems.push(`a time left on a ${r.state} phase: ${r.text}`);
      if (r.state === "moving" && !/\/(s|min) · about .* left/.test(r.text)) problems.push(`a moving phase without its rate: ${r.text}`);
      if (r.phase === "register" && r.state === "done" && registeredAt === null) registeredAt = Date.now();
      if (r.phase === "analyze" && r.state === "done" && analysedAt === null) analysedAt = Date.now();
    }
    for (const c of s.pendingCells) if (c !== "pending") problems.push(`a registered document's type says ${c}`);
    // The chart counts the documents not analysed yet (all the registered ones) as Pending;
    // Other is only what was read (or failed) without a type.
    const num = (label) => Number((s.chart.match(new RegExp(`(?:^|\\n)${label}\\n([\\d,]+)`)) ?? [])[1]?.replace(/,/g, "") ?? 0);
    // (The chart's counts are separate reads: a batch of analyses, 16 a worker, may land
    // between them.)
    if (s.pendingCells.length > 0 || num("Pending") > 0) pendingSeen = true;
    if (s.chart && Math.abs(num("Pending") - num("registered")) > 64) problems.push(`the chart's Pending (${num("Pending")}) is not its registered (${num("registered")})`);
    for (const ph of ["register", "analyze", "enrich"]) {
      const r = s.rows.find((x) => x.phase === ph && x.state !== "done" && x.done > 0);
      if (r && !shots.has(ph)) {
        shots.add(ph);
        await shot(`progress-${ph}`);
      }
    }
    return s;
  };

  addedAt = Date.now();
  await byId("watch-folder-add").click();
  // The first search result for words of note 0, measured from the click.
  const probe = (async () => {
    while (firstResultMs === null && Date.now() - addedAt < 300000) {
      const r = await callAPI("Search", { query: "Notes by", mode: "keyword", limit: 1 }).catch(() => null);
      if (r?.results?.length) firstResultMs = Date.now() - addedAt;
      else await new Promise((res) => setTimeout(res, 200));
    }
  })();

  const deadline = Date.now() + 420000;
  while (Date.now() < deadline) {
    await sample();
    const finished = await page.locator('[data-testid="import-summary"][data-finished="true"]').count();
    const linkingMoves = [...seenDone.enrich].filter((d) => d > 0).length >= 2;
    if (finished > 0 && linkingMoves) break;
    await page.waitForTimeout(250);
  }
  await probe;
  assert.deepEqual(problems.slice(0, 5), [], "what the page showed while it worked");
  const moved = (ph) => [...seenDone[ph]].filter((d) => d > 0).length;
  assert.ok(moved("register") >= 2, `registering counts moved: ${[...seenDone.register]}`);
  assert.ok(moved("analyze") >= 2, `analyzing counts moved: ${[...seenDone.analyze]}`);
  assert.ok(moved("enrich") >= 2, `linking counts moved: ${[...seenDone.enrich]}`);
  assert.ok(pendingSeen, "documents waiting for analysis were shown (as pending)");

  const line = page.locator('[data-testid="import-summary"][data-finished="true"]').first();
  await line.waitFor({ timeout: 5000 });
  assert.equal(await line.locator('[data-testid="import-line"]').innerText(), want);
  // The box lists a dozen files and says how many more the import had (not how many more it
  // happens to keep in memory).
  const listed = await page.locator('[data-testid="upload-item"]').count();
  assert.equal(await byId("upload-more").innerText(), `and ${fmt(total - listed)} more files, counted in the line above`);
  await shot("progress-summary");

  const st = await callAPI("Status");
  const imp = st.imports.find((i) => i.finished && i.files === total);
  assert.ok(imp, "Status.imports carries the finished import");
  assert.equal(imp.failed_by.ANALYSIS_FAILED + imp.failed_by.UNSUPPORTED_FILE_TYPE, failed, JSON.stringify(imp.failed_by));
  // Each file registered once: a submission per registration (the two binaries fail before
  // theirs is written), never a second one from the watcher's reconcile.
  assert.ok(st.counts.submissions <= total && st.counts.submissions >= total - failed, `${st.counts.submissions} registrations of ${total} files`);

  console.log(`# registration: ${fmt(total)} files in ${((registeredAt - addedAt) / 1000).toFixed(1)} s (${Math.round(total / ((registeredAt - addedAt) / 1000))} files/s, as the page saw it)`);
  console.log(`# analysis: ${fmt(added + failed - 2)} documents read by ${((analysedAt - addedAt) / 1000).toFixed(1)} s after the click`);
  console.log(`# first search result ${firstResultMs} ms after the click`);
  assert.ok(firstResultMs !== null && firstResultMs < 60000, `first search result after ${firstResultMs} ms`);

  // "see them": the Library filtered to the import's failures.
  await line.locator('[data-testid="import-failures"]').click();
  await page.waitForURL(/status=failed/);
  assert.match(decodeURIComponent(page.url()), new RegExp(`path=${folder}`));
  const rows = page.locator('[data-testid="doc-row"][data-status="failed"]');
  await rows.first().waitFor({ timeout: 10000 });
  assert.equal(await rows.count(), failed);
  await shot("progress-failures");
});
