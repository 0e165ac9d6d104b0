// The search, off the page's thread: one WebAssembly instance per run (its memory is the
// run's storage, freed with it), the engine stepped in budgeted slices of about SLICE_MS,
// output and counters posted every POST_MS, and the event loop let in between so that a
// Stop message is seen at once.
//
// Messages in:  {cmd: 'dlx3', args, input} | {cmd: 'sudoku', puzzle, limit}
//               | {cmd: 'grid', grid, mask, clues, minimal} | {cmd: 'stop'}
// Messages out: {type: 'output', out, err} (bytes as text) | {type: 'counters', ...}
//               | {type: 'done', ...} | {type: 'failed', message}

const SLICE_MS = 8;
const POST_MS = 50;

let compiled = null;
let stopRequested = false;
const decoders = { 1: new TextDecoder(), 2: new TextDecoder() };

async function instance() {
  if (!compiled) {
    const bytes = await (await fetch(new URL('xcover.wasm', import.meta.url))).arrayBuffer();
    compiled = await WebAssembly.compile(bytes);
  }
  return (await WebAssembly.instantiate(compiled, {})).exports;
}

// Copies `bytes` into the module's inbox (the module gives the offset).
function put(x, bytes) {
  const at = x.xc_inbox(bytes.length);
  if (at === 0 && bytes.length > 0) throw new Error('the input does not fit in memory');
  new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
}

const encoder = new TextEncoder();

// Reads and empties both outputs; decodes them as text, keeping a split UTF-8 sequence
// for the next call.
function take(x) {
  const text = {};
  for (const stream of [1, 2]) {
    const len = x.xc_output_len(stream);
    const bytes = new Uint8Array(x.memory.buffer, x.xc_output(stream), len);
    text[stream] = decoders[stream].decode(bytes, { stream: true });
  }
  x.xc_drain();
  return { out: text[1], err: text[2] };
}

// Lets queued messages (Stop) in without the clamping of nested timers.
const channel = new MessageChannel();
let wake = null;
channel.port1.onmessage = () => wake && wake();
function yieldToEvents() {
  return new Promise((resolve) => {
    wake = resolve;
    channel.port2.postMessage(null);
  });
}

// Steps `step(budget)` (1: more to do, 0: over) in slices of about SLICE_MS, posting
// output and counters; `spent()` is the budget's unit so far (mems, placements), from
// which the next slice's budget is sized, starting from `budget` (small: a grid checker's
// step can cost 40 us, a DLX3 mem a nanosecond). Returns true if Stop ended it.
async function slices(x, step, spent, counters, budget) {
  let posted = performance.now();
  for (;;) {
    // Calls until SLICE_MS have passed (a call can end early, at a printed solution).
    const sliceStart = performance.now();
    do {
      const t0 = performance.now();
      const s0 = spent();
      const more = step(budget);
      const dt = performance.now() - t0;
      const used = spent() - s0;
      if (dt >= 1 && used >= budget / 2) {
        budget = Math.min(1e10, Math.max(10, Math.round((used / dt) * SLICE_MS)));
      } else if (used >= budget) {
        budget = Math.min(1e10, budget * 2);
      }
      if (!more) return false;
    } while (performance.now() - sliceStart < SLICE_MS);
    if (performance.now() - posted >= POST_MS) {
      postMessage({ type: 'output', ...take(x) });
      postMessage({ type: 'counters', ...counters() });
      posted = performance.now();
    }
    await yieldToEvents();
    if (stopRequested) return true;
  }
}

async function dlx3({ args, input }) {
  const x = await instance();
  const counters = () => ({
    stage: x.dlx3_stage(),
    lost: x.xc_output_lost(),
    solutions: x.dlx3_counter(0),
    mems: x.dlx3_counter(1),
    nodes: x.dlx3_counter(2),
  });
  put(x, encoder.encode(args));
  let status = x.dlx3_begin();
  if (status === 0) {
    put(x, encoder.encode(input));
    status = x.dlx3_read();
  }
  if (status !== 0) {
    postMessage({ type: 'output', ...take(x) });
    postMessage({ type: 'done', status, errorLine: x.dlx3_error_line(), ...counters() });
    return;
  }
  postMessage({ type: 'output', ...take(x) });
  const stopped = await slices(x, (b) => x.dlx3_run(b), () => x.dlx3_counter(1), counters, 1e4);
  status = stopped ? x.dlx3_interrupt() : x.dlx3_status();
  postMessage({ type: 'output', ...take(x) });
  postMessage({ type: 'done', status, stopped, errorLine: 0, ...counters() });
}

async function sudoku({ puzzle, limit }) {
  const x = await instance();
  put(x, encoder.encode(puzzle));
  const count = x.sudoku_solve(limit);
  const { out, err } = take(x);
  postMessage({ type: 'done', count, solution: out.trim(), message: err.trim() });
}

async function grid({ grid: digits, mask, clues, minimal }) {
  const x = await instance();
  const counters = () => ({
    chunksDone: x.grid_figure(0),
    chunks: x.grid_figure(1),
    found: x.grid_figure(2),
    nodes: x.grid_figure(3),
    candidates: x.grid_figure(4),
    ua: x.grid_figure(5),
  });
  put(x, encoder.encode(`${digits}\n${mask}`));
  const chunks = x.grid_begin(clues, minimal ? 1 : 0);
  if (chunks < 0) {
    postMessage({ type: 'done', failed: true, message: take(x).err.trim() });
    return;
  }
  postMessage({ type: 'counters', ...counters() });
  const stopped = await slices(x, (b) => x.grid_run(b), () => x.grid_figure(3), counters, 10);
  postMessage({ type: 'output', ...take(x) });
  postMessage({ type: 'done', stopped, ...counters() });
}

const commands = { dlx3, sudoku, grid };

onmessage = async ({ data }) => {
  if (data.cmd === 'stop') {
    stopRequested = true;
    return;
  }
  stopRequested = false;
  for (const stream of [1, 2]) decoders[stream] = new TextDecoder();
  try {
    await commands[data.cmd](data);
  } catch (e) {
    // A trap (out of memory, say) ends the instance; the page is told why.
    postMessage({ type: 'failed', message: String(e && e.message ? e.message : e) });
  }
};
