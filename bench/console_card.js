// ASK to card: from starting `cordon check` (a destructive command, so it
// asks the console) to its card being in the page, in a headless browser:
// BROWSER chromium (DevTools protocol) or firefox (WebDriver BiDi), EXE its
// binary. The page notes the time a card is added (a MutationObserver,
// Date.now); the door's start is Date.now here: one clock, one machine.
"use strict";
const puppeteer = require("puppeteer-core");
const { spawn } = require("child_process");
const E = process.env;
(async () => {
  const browser = await puppeteer.launch(E.BROWSER === "firefox"
    ? { browser: "firefox", executablePath: E.EXE, headless: true }
    : { browser: "chrome", executablePath: E.EXE, headless: true,
        args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage();
  await page.goto(E.LOGIN, { waitUntil: "networkidle2" });
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live");
  await page.evaluate(() => {
    window.__seen = {};
    new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes)
      if (n.dataset && n.dataset.id) window.__seen[n.textContent.match(/build-card-(\d+)/)[1]] = Date.now(); })
      .observe(document.getElementById("cards"), { childList: true });
  });
  const xs = [];
  for (let i = 0; i < Number(E.RUNS); i++) {
    const t0 = Date.now();
    const p = spawn(E.BIN, ["check", "--workspace", E.WS, "--tool", "Bash", "--session", "card" + i,
                           "--args", JSON.stringify({ command: "rm -rf build-card-" + i })], { stdio: "ignore" });
    // listened for now: the door may be gone before the key press returns
    const exited = new Promise(r => p.on("exit", r));
    await page.waitForFunction(i => window.__seen[i], { polling: "mutation" }, String(i));
    xs.push(await page.evaluate(i => window.__seen[i], String(i)) - t0);
    await page.keyboard.press("n");
    await exited;
  }
  xs.sort((a, b) => a - b);
  const med = xs[Math.floor(xs.length / 2)];
  const name = `ASK to card in the page, ${E.BROWSER}`;
  console.log(`${name.padEnd(52)} median ${med.toFixed(2)} ms   p90 ${xs[Math.max(0, Math.ceil(xs.length * 0.9) - 1)].toFixed(2)} ms   (n=${xs.length})`);
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
