// What every end-to-end test file needs, once: a real `strata serve` in browser mode on a data
// folder of its own, a headless Debian Chromium with a page, and the page's helpers.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const here = dirname(fileURLToPath(import.meta.url));
export const artifacts = join(here, "artifacts");
mkdirSync(artifacts, { recursive: true });
export const strataBin = join(here, ".bin", "strata");

// startServe runs `strata serve --data DATA` with env added to the process's (an Ollama nobody
// answers unless env says otherwise) and resolves with the server and the address it prints.
export function startServe(data, env = {}, args = []) {
  const server = spawn(strataBin, ["serve", "--data", data, "--mcp-addr", "127.0.0.1:0", ...args], {
    env: { ...process.env, STRATA_EMBEDDER: "static", OLLAMA_HOST: "127.0.0.1:1", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const uiURL = new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error("serve did not print its address:\n" + err)), 20000);
    server.stderr.on("data", (b) => {
      err += b;
      const m = err.match(/open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+) in a browser/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on("exit", (code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
  return uiURL.then((url) => ({ server, uiURL: url }));
}

// openBrowser launches Debian's Chromium headless (no downloads, no background traffic to a
// network this machine does not reach) and opens a page of the given size.
export async function openBrowser(viewport = { width: 1280, height: 860 }) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return { browser, page };
}

// pageHelpers: a screenshot kept in artifacts/, an element by its data-testid, and the UI's own
// API as the page calls it (same origin, the session cookie of the token).
export function pageHelpers(page) {
  return {
    shot: (name) => page.screenshot({ path: join(artifacts, name + ".png"), fullPage: true }),
    byId: (id) => page.locator(`[data-testid="${id}"]`),
    callAPI: (method, ...args) =>
      page.evaluate(
        async ([m, a]) => {
          const r = await fetch(`./api/${m}`, { method: "POST", body: JSON.stringify(a) });
          if (!r.ok) throw new Error(`${m}: ${r.status} ${await r.text()}`);
          return r.json();
        },
        [method, args],
      ),
  };
}
