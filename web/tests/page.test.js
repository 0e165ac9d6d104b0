// The page in a real browser: Debian's chromium, headless, driven by playwright-core,
// against the page served on 127.0.0.1 (`.ci/web` builds it, serves web/dist and sets
// XCOVER_WEB_URL, and builds the command, XCOVER_BIN). Every expected output is the
// command's, computed here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const url = process.env.XCOVER_WEB_URL;
const xcover = process.env.XCOVER_BIN;
const shots = process.env.XCOVER_WEB_SCREENSHOTS || path.join(root, 'web', 'screenshots');
if (!url || !xcover) {
  throw new Error('run by .ci/web: it sets XCOVER_WEB_URL (the served page) and XCOVER_BIN (the xcover command)');
}

/** Runs the command; its stdout, stderr and status. */
function cli(args, input) {
  const r = spawnSync(xcover, args, { input, maxBuffer: 1 << 28 });
  // EPIPE: the command refused its arguments before reading its input.
  if (r.error && r.error.code !== 'EPIPE') throw r.error;
  return { out: r.stdout.toString(), err: r.stderr.toString(), status: r.status };
}

const example = (name) => fs.readFileSync(path.join(root, 'examples', name), 'utf8');
const queens = (n) => spawnSync('bash', [path.join(root, 'cluster/slurm/queens.sh'), String(n)]).stdout.toString();

let context;
let page;
// Every request that left the page's own server (none should: no CDN, works offline).
const outside = [];

before(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'xcover-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.XCOVER_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  context.on('request', (r) => {
    if (!r.url().startsWith(url) && !/^(about|data|blob):/.test(r.url())) outside.push(r.url());
  });
  page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  fs.mkdirSync(shots, { recursive: true });
});

after(async () => {
  await context?.close();
});

async function open(hash = '') {
  await page.goto('about:blank');
  await page.goto(`${url}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
}

/** Runs DLX3 with `args` on `input` in the page; the page's two streams and state line. */
async function runDlx3(args, input) {
  await page.fill('#dlx3-args', args);
  if (input !== undefined) await page.fill('#dlx3-input', input);
  await page.click('#dlx3-run');
  await page.waitForFunction(() => /^(done|stopped|failed)/.test(document.getElementById('dlx3-state').textContent), null, { timeout: 60_000 });
  return page.evaluate(() => ({
    out: document.getElementById('dlx3-out').textContent,
    err: document.getElementById('dlx3-err').textContent,
    state: document.getElementById('dlx3-state').textContent,
    solutions: document.getElementById('dlx3-solutions').textContent,
  }));
}

test('the first example prints the bytes xcover dlx3 prints', async () => {
  await open();
  const first = await page.$eval('#dlx3-example', (s) => s.options[1].value);
  assert.equal(first, fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.dlx')).sort()[0]);
  assert.equal(await page.inputValue('#dlx3-input'), example(first), 'the first visit shows the first example');
  for (const args of ['m1', 'm1 v1 d0', '']) {
    const shown = await runDlx3(args);
    const want = cli(['dlx3', ...args.split(' ').filter(Boolean)], example(first));
    assert.equal(shown.out, want.out, `stdout of ${first} with "${args}"`);
    assert.equal(shown.err, want.err, `stderr of ${first} with "${args}"`);
    assert.equal(shown.state, `done, exit status ${want.status}`);
    const count = /Altogether (\d+) solution/.exec(want.err)[1];
    assert.equal(shown.solutions, Number(count).toLocaleString('en-US'));
  }
});

test('8 and 11 queens: the solutions, progress reports and totals as the command prints them', async () => {
  await open();
  const input = example('queens8.dlx');
  const shown = await runDlx3('m1', input);
  const want = cli(['dlx3', 'm1'], input);
  assert.ok(want.out.length > 1000);
  assert.equal(shown.out, want.out);
  assert.equal(shown.err, want.err);
  await page.screenshot({ path: path.join(shots, 'dlx3.png') });
  console.log(`screenshot: ${path.join(shots, 'dlx3.png')}`);
  // Many solutions, streamed over many slices and messages: still the same bytes.
  const eleven = queens(11);
  const many = await runDlx3('m1 d100000', eleven);
  const wantMany = cli(['dlx3', 'm1', 'd100000'], eleven);
  assert.ok(wantMany.out.split('\n').length > 20_000);
  assert.equal(many.out, wantMany.out);
  assert.equal(many.err, wantMany.err);
});

test('Stop ends a long search within 0.2 s, with the interrupt reports', async () => {
  await open();
  await page.fill('#dlx3-input', queens(18));
  await page.fill('#dlx3-args', 'm0');
  await page.click('#dlx3-run');
  // The search is under way once mems count up.
  await page.waitForFunction(() => document.getElementById('dlx3-mems').textContent !== '0', null, { timeout: 20_000 });
  const ms = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const state = document.getElementById('dlx3-state');
        const t0 = performance.now();
        new MutationObserver(() => {
          if (state.textContent.startsWith('stopped')) resolve(performance.now() - t0);
        }).observe(state, { childList: true, characterData: true, subtree: true });
        document.getElementById('dlx3-stop').click();
      }),
  );
  const state = await page.textContent('#dlx3-state');
  assert.equal(state, 'stopped, exit status 130', 'the worker ended the run itself');
  assert.ok(ms < 200, `Stop took ${ms.toFixed(1)} ms`);
  const err = await page.textContent('#dlx3-err');
  assert.match(err, /INTERRUPTED!\nAltogether \d+ solutions?, \d+\+\d+ mems,.*\n$/);
  console.log(`Stop ended the search in ${ms.toFixed(1)} ms`);
});

test('bad input shows its message and points at its line', async () => {
  await open();
  const input = 'A B C\nA B\nC\nA X\nB\n';
  const shown = await runDlx3('', input);
  const want = cli(['dlx3'], input);
  assert.equal(want.status, 102);
  assert.equal(shown.err, want.err);
  assert.equal(shown.state, 'done, exit status 102');
  const box = await page.textContent('#dlx3-error');
  assert.equal(box.split('\n')[0], `Line 4: ${want.err.split('\n')[0]}`);
  assert.match(box, /4 \| A X/);
  assert.ok(await page.isVisible('#dlx3-error'));
  // The editor selects the line.
  const selected = await page.$eval('#dlx3-input', (t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert.equal(selected, 'A X');
  // A bad argument: the usage line, status 255, as the command.
  const bad = await runDlx3('x7', 'A\nA\n');
  const usage = cli(['dlx3', 'x7'], 'A\nA\n');
  assert.equal(bad.err, usage.err);
  assert.equal(bad.state, `done, exit status ${usage.status}`);
});

/** The example grid's puzzles with N clues, as `xcover gridcheck` lists them. */
function gridPuzzles(clues) {
  const mask = example('grid.mask').trim();
  const r = cli(['gridcheck', '--clues', String(clues), '--mask', mask, '--threads', '1', '--file', path.join(root, 'examples/grid.txt')]);
  assert.equal(r.status, 0, r.err);
  return r.out.split('\n').filter(Boolean);
}

test('a Sudoku solves, and its solutions are counted', async () => {
  await open('#view=sudoku');
  const [puzzle] = gridPuzzles(17);
  const cells = await page.$$('#sudoku-board input');
  assert.equal(cells.length, 81);
  for (let i = 0; i < 81; i++) if (puzzle[i] !== '0') await cells[i].fill(puzzle[i]);
  await page.click('#sudoku-solve');
  await page.waitForFunction(() => document.getElementById('sudoku-result').textContent !== '');
  assert.equal(await page.textContent('#sudoku-result'), 'Solved: the solution is unique.');
  const solved = await page.$$eval('#sudoku-board input', (c) => c.map((x) => x.value).join(''));
  assert.equal(solved, cli(['sudoku', 'solve'], `${puzzle}\n`).out.trim());
  // Fewer givens: several solutions, counted as the command counts them.
  const fewer = `${puzzle.slice(0, 40)}0${puzzle.slice(41)}`.replace(/[1-9]/, '0');
  await page.click('#sudoku-clear');
  for (let i = 0; i < 81; i++) if (fewer[i] !== '0') await cells[i].fill(fewer[i]);
  await page.click('#sudoku-count');
  await page.waitForFunction(() => document.getElementById('sudoku-result').textContent !== '');
  const counted = cli(['sudoku', 'count'], `${fewer}\n`).out.trim();
  assert.match(counted, /^\d+$/);
  assert.equal(await page.textContent('#sudoku-result'), `${Number(counted).toLocaleString('en-US')} solution${counted === '1' ? '' : 's'}.`);
});

test("the grid checker lists the command's puzzles of examples/grid.txt with examples/grid.mask", async () => {
  await open('#view=sudoku');
  await page.click('#grid-example');
  await page.waitForFunction(() => document.getElementById('grid-digits').value.length === 81);
  assert.equal(await page.inputValue('#grid-digits'), example('grid.txt').trim());
  assert.equal(await page.locator('#grid-board .given').count(), [...example('grid.mask')].filter((c) => c === '1').length);
  for (const clues of [17, 18]) {
    await page.fill('#grid-clues', String(clues));
    await page.click('#grid-run');
    await page.waitForFunction(() => / - (done|stopped)$/.test(document.getElementById('grid-state').textContent), null, { timeout: 60_000 });
    const listed = await page.$$eval('#grid-puzzles li', (l) => l.map((x) => x.textContent));
    const want = gridPuzzles(clues);
    assert.ok(want.length >= 1);
    assert.deepEqual(listed, want, `${clues} clues`);
    assert.match(await page.textContent('#grid-state'), new RegExp(`^(\\d+) of \\1 chunks, ${want.length} found`));
  }
  // A puzzle clicked is shown on the board: its givens, the rest blank.
  await page.click('#grid-puzzles li:nth-child(3)');
  assert.equal(await page.locator('#grid-board .given').count(), 18);
  // The same puzzle typed on the solver's board solves to the grid.
  const shown = (await page.textContent('#grid-puzzles li:nth-child(3)')).trim();
  const cells = await page.$$('#sudoku-board input');
  for (let i = 0; i < 81; i++) if (shown[i] !== '0') await cells[i].fill(shown[i]);
  await page.click('#sudoku-solve');
  await page.waitForFunction(() => document.getElementById('sudoku-result').textContent !== '');
  const solved = await page.$$eval('#sudoku-board input', (c) => c.map((x) => x.value).join(''));
  assert.equal(solved, example('grid.txt').trim());
  await page.screenshot({ path: path.join(shots, 'sudoku.png') });
  console.log(`screenshot: ${path.join(shots, 'sudoku.png')}`);
});

test('Stop ends a whole-grid scan at once, keeping what it found', async () => {
  await open('#view=sudoku');
  await page.click('#grid-example');
  await page.waitForFunction(() => document.getElementById('grid-digits').value.length === 81);
  // Clear the mask: every cell free, a whole-grid 17-clue scan (minutes).
  for (let i = 0; i < 81; i++) {
    const cell = page.locator(`#grid-board .cell:nth-child(${i + 1})`);
    while ((await cell.getAttribute('class')).match(/ (given|empty)/)) await cell.click();
  }
  await page.fill('#grid-clues', '17');
  await page.click('#grid-run');
  await page.waitForFunction(() => /^\d+ of \d+ chunks/.test(document.getElementById('grid-state').textContent), null, { timeout: 60_000 });
  const ms = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const state = document.getElementById('grid-state');
        const t0 = performance.now();
        new MutationObserver(() => {
          if (/stopped/.test(state.textContent)) resolve(performance.now() - t0);
        }).observe(state, { childList: true, characterData: true, subtree: true });
        document.getElementById('grid-stop').click();
      }),
  );
  assert.match(await page.textContent('#grid-state'), / - stopped$/);
  assert.ok(ms < 200, `Stop took ${ms.toFixed(1)} ms`);
  assert.ok(await page.isEnabled('#grid-run'));
  console.log(`Stop ended the scan in ${ms.toFixed(1)} ms`);
});

test('the link reproduces what is on screen', async () => {
  await open();
  await page.fill('#dlx3-args', 'm2 v1');
  await page.fill('#dlx3-input', 'A B | c\nA c:1\nB c:1\nA B\n');
  const link = await page.getAttribute('#link', 'href');
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForSelector('body[data-ready="true"]');
  assert.equal(await other.inputValue('#dlx3-args'), 'm2 v1');
  assert.equal(await other.inputValue('#dlx3-input'), 'A B | c\nA c:1\nB c:1\nA B\n');
  // The Sudoku view's state too.
  await page.click('#tab-sudoku');
  await page.click('#grid-example');
  await page.waitForFunction(() => document.getElementById('grid-digits').value.length === 81);
  await page.click('#grid-board .cell:nth-child(81)');
  const sudokuLink = await page.getAttribute('#link', 'href');
  await other.goto(sudokuLink);
  await other.waitForSelector('body[data-ready="true"]');
  assert.ok(await other.isVisible('#view-sudoku'));
  assert.equal(await other.inputValue('#grid-digits'), example('grid.txt').trim());
  const mask = example('grid.mask').trim().slice(0, 80) + '1';
  assert.equal(await other.locator('#grid-board .given').count(), [...mask].filter((c) => c === '1').length);
  await other.close();
});

test('the page asks nothing of the network beyond its own server', () => {
  assert.deepEqual(outside, []);
});
