// Measures n queens (default 12) counted in the page (`m0`, in its worker, in budgeted
// slices) against `xcover dlx3 m0` on the same machine, alternating, REPEAT times; prints
// each pair and the median ratio page/command. A measurement, not a test: run it on a
// served page (as .ci/web serves it):
//
//   XCOVER_WEB_URL=http://127.0.0.1:PORT/ XCOVER_BIN=target/release/xcover node web/bench/queens.mjs [N] [REPEAT]
//
// The page's time is its own elapsed counter (Run pressed to the run's end: a fresh
// instance, the matrix read, the search, the reports); the command's is the wall time of
// the process (start, read, search, reports).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [n = 12, repeat = 7] = process.argv.slice(2).map(Number);
const url = process.env.XCOVER_WEB_URL;
const xcover = process.env.XCOVER_BIN;
if (!url || !xcover) throw new Error('set XCOVER_WEB_URL and XCOVER_BIN');
const input = spawnSync('bash', [path.join(root, 'cluster/slurm/queens.sh'), String(n)]).stdout.toString();

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'xcover-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] || (await context.newPage());
await page.goto(url);
await page.waitForSelector('body[data-ready="true"]');
await page.fill('#dlx3-input', input);
await page.fill('#dlx3-args', 'm0');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = [];
const times = { page: [], command: [] };
for (let i = 0; i < repeat; i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(xcover, ['dlx3', 'm0'], { input });
  const cliSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cliCount = /Altogether (\d+) solutions/.exec(r.stderr.toString())[1];
  await page.click('#dlx3-run');
  await page.waitForFunction(() => /^done/.test(document.getElementById('dlx3-state').textContent), null, { timeout: 600_000 });
  const pageSeconds = parseFloat(await page.textContent('#dlx3-elapsed'));
  const pageCount = (await page.textContent('#dlx3-solutions')).replace(/,/g, '');
  if (pageCount !== cliCount) throw new Error(`the page counted ${pageCount}, the command ${cliCount}`);
  ratios.push(pageSeconds / cliSeconds);
  times.page.push(pageSeconds);
  times.command.push(cliSeconds);
  console.log(`run ${i + 1}: page ${pageSeconds.toFixed(3)} s, command ${cliSeconds.toFixed(3)} s, ratio ${(pageSeconds / cliSeconds).toFixed(2)} (${cliCount} solutions)`);
}
console.log(`fastest: page ${Math.min(...times.page).toFixed(3)} s, command ${Math.min(...times.command).toFixed(3)} s, ratio ${(Math.min(...times.page) / Math.min(...times.command)).toFixed(2)}`);
console.log(`${n} queens, m0: median ratio page/command ${median(ratios).toFixed(2)} over ${repeat} pairs (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)})`);
await context.close();
