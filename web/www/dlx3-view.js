// The DLX3 view: an editor with the repository's examples, Knuth's arguments, Run and
// Stop, the two output streams as they come, live counters, and a bad input's line.
import { Engine } from './engine.js';

const $ = (id) => document.getElementById(id);
// Characters of each stream kept on screen; what comes after is counted, not shown (a
// run that prints millions of solutions would otherwise fill the page's memory).
const SHOWN_LIMIT = 8 << 20;
// Core's stages (`Stage`, as `dlx3_stage` numbers them).
const STAGES = ['reading items', 'reading options', 'ready', 'searching', 'at a solution', 'done', 'failed'];

export function dlx3View({ onChange }) {
  const engine = new Engine();
  const input = $('dlx3-input');
  const args = $('dlx3-args');
  const example = $('dlx3-example');
  const streams = { out: $('dlx3-out'), err: $('dlx3-err') };
  const shown = { out: 0, err: 0 };
  let started = 0;
  let ticking = 0;

  function append(name, text) {
    if (!text) return;
    const pre = streams[name];
    const room = SHOWN_LIMIT - shown[name];
    if (room > 0) pre.append(text.length > room ? text.slice(0, room) : text);
    if (text.length >= room && shown[name] < SHOWN_LIMIT + 1) {
      pre.append('\n[the page shows no more of this stream]\n');
      shown[name] = SHOWN_LIMIT + 1;
      return;
    }
    shown[name] += text.length;
    pre.scrollTop = pre.scrollHeight;
  }

  function counters({ solutions, mems, nodes, stage }) {
    if (engine.running && stage >= 0) $('dlx3-state').textContent = `running: ${STAGES[stage]}`;
    $('dlx3-solutions').textContent = solutions.toLocaleString('en-US');
    $('dlx3-mems').textContent = mems.toLocaleString('en-US');
    $('dlx3-nodes').textContent = nodes.toLocaleString('en-US');
  }

  function tick() {
    $('dlx3-elapsed').textContent = `${((performance.now() - started) / 1000).toFixed(3)} s`;
    if (engine.running) ticking = requestAnimationFrame(tick);
  }

  function showError(line, report) {
    const box = $('dlx3-error');
    const lines = input.value.split('\n');
    const text = line > 0 && line <= lines.length ? lines[line - 1] : '';
    box.textContent = `Line ${line}: ${report.split('\n')[0]}\n${String(line).padStart(5)} | ${text}`;
    box.hidden = false;
    box.dataset.line = String(line);
    // Select the line in the editor.
    let from = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) from += lines[i].length + 1;
    input.focus();
    input.setSelectionRange(from, from + text.length);
  }

  async function run() {
    if (engine.running) return;
    onChange();
    for (const name of ['out', 'err']) {
      streams[name].textContent = '';
      shown[name] = 0;
    }
    $('dlx3-error').hidden = true;
    counters({ solutions: 0, mems: 0, nodes: 0 });
    $('dlx3-run').disabled = true;
    $('dlx3-stop').disabled = false;
    $('dlx3-state').textContent = 'running';
    let errText = '';
    started = performance.now();
    ticking = requestAnimationFrame(tick);
    const result = await engine.run(
      { cmd: 'dlx3', args: args.value, input: input.value },
      {
        output: ({ out, err }) => {
          append('out', out);
          append('err', err);
          errText += errText.length < 4096 ? err : '';
        },
        counters,
      },
    );
    cancelAnimationFrame(ticking);
    tick();
    $('dlx3-run').disabled = false;
    $('dlx3-stop').disabled = true;
    if (result.failed) {
      $('dlx3-state').textContent = `failed: ${result.message}`;
      return;
    }
    if (result.killed) {
      $('dlx3-state').textContent = 'stopped (the worker was ended)';
      return;
    }
    counters(result);
    const how = result.stopped ? 'stopped' : 'done';
    $('dlx3-state').textContent = `${how}, exit status ${result.status}`;
    if (result.lost > 0) $('dlx3-state').textContent += ` (${result.lost} bytes of output lost: out of memory)`;
    if (result.status !== 0 && result.errorLine > 0) showError(result.errorLine, errText);
  }

  async function loadExamples() {
    const names = await (await fetch('examples/index.json')).json();
    for (const name of names) example.append(new Option(name, name));
  }

  async function pick() {
    if (!example.value) return;
    input.value = await (await fetch(`examples/${example.value}`)).text();
    onChange();
  }

  $('dlx3-run').addEventListener('click', run);
  $('dlx3-stop').addEventListener('click', () => engine.stop());
  example.addEventListener('change', pick);
  input.addEventListener('input', () => {
    example.value = '';
    onChange();
  });
  args.addEventListener('input', onChange);

  return {
    ready: loadExamples(),
    async choose(index) {
      example.selectedIndex = index;
      await pick();
    },
    state: () => ({ input: input.value, args: args.value }),
    restore(params) {
      if (params.has('input')) input.value = params.get('input');
      if (params.has('args')) args.value = params.get('args');
    },
  };
}
