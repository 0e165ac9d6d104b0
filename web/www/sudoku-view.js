// The Sudoku view: a board to type a puzzle and solve or count it, and the grid checker
// (a solution grid, N clues, a mask set by clicking cells, the puzzles as they are found,
// each shown on the board when clicked).
import { Engine } from './engine.js';
import { makeBoard } from './board.js';

const $ = (id) => document.getElementById(id);
// Mask characters in the order a click cycles them: free, forced given, forced empty.
const CYCLE = ['.', '1', '0'];
// Solutions counted at most (the count says "at least" beyond).
const COUNT_LIMIT = 1000000;

export function sudokuView({ onChange }) {
  const solver = new Engine();
  const checker = new Engine();
  const puzzleCells = makeBoard($('sudoku-board'), { typed: true });
  let mask = Array(81).fill('.');
  let shownPuzzle = null;
  const gridCells = makeBoard($('grid-board'), {
    onClick: (i) => {
      if (checker.running) return;
      mask[i] = CYCLE[(CYCLE.indexOf(mask[i]) + 1) % CYCLE.length];
      shownPuzzle = null;
      drawGrid();
      onChange();
    },
  });
  const digits = $('grid-digits');

  const puzzleText = () => puzzleCells.map((c) => c.value || '.').join('');

  function setPuzzle(text) {
    puzzleCells.forEach((c, i) => {
      c.value = /[1-9]/.test(text[i] || '') ? text[i] : '';
      c.classList.remove('solved');
    });
  }

  async function solve(limit) {
    if (solver.running) return;
    onChange();
    const result = await solver.run({ cmd: 'sudoku', puzzle: puzzleText(), limit });
    const out = $('sudoku-result');
    if (result.failed || result.count < 0) {
      out.textContent = result.message || 'failed';
      return;
    }
    if (result.count === 0) {
      out.textContent = 'No solution.';
      return;
    }
    puzzleCells.forEach((c, i) => {
      if (!c.value) {
        c.value = result.solution[i];
        c.classList.add('solved');
      }
    });
    if (limit === 2) {
      out.textContent = result.count === 1 ? 'Solved: the solution is unique.' : 'Solved: one of several solutions.';
    } else {
      const n = result.count.toLocaleString('en-US');
      out.textContent = result.count >= limit ? `At least ${n} solutions (counted up to ${limit}).` : `${n} solution${result.count === 1 ? '' : 's'}.`;
    }
  }

  function drawGrid() {
    const grid = digits.value;
    gridCells.forEach((c, i) => {
      const d = /[1-9]/.test(grid[i] || '') ? grid[i] : '';
      c.textContent = d;
      c.className = c.className.replace(/ (given|empty|hidden-digit)/g, '');
      if (shownPuzzle) {
        if (shownPuzzle[i] !== '0') c.classList.add('given');
        else c.classList.add('hidden-digit');
      } else if (mask[i] === '1') c.classList.add('given');
      else if (mask[i] === '0') c.classList.add('empty');
    });
  }

  function showPuzzle(li, puzzle) {
    for (const other of document.querySelectorAll('#grid-puzzles li.shown')) other.classList.remove('shown');
    li.classList.add('shown');
    shownPuzzle = puzzle;
    drawGrid();
  }

  function listPuzzles(lines) {
    const list = $('grid-puzzles');
    for (const line of lines) {
      const li = document.createElement('li');
      li.textContent = line;
      li.addEventListener('click', () => showPuzzle(li, line));
      list.append(li);
    }
  }

  function progress(c) {
    $('grid-progress').max = Math.max(1, c.chunks);
    $('grid-progress').value = c.chunksDone;
    $('grid-state').textContent = `${c.chunksDone} of ${c.chunks} chunks, ${c.found} found, ${c.nodes.toLocaleString('en-US')} nodes, ${c.candidates.toLocaleString('en-US')} candidates checked (UA ${c.ua})`;
  }

  async function check() {
    if (checker.running) return;
    onChange();
    shownPuzzle = null;
    drawGrid();
    $('grid-puzzles').textContent = '';
    $('grid-state').textContent = 'generating unavoidable sets, preparing';
    $('grid-run').disabled = true;
    $('grid-stop').disabled = false;
    const found = [];
    let pending = '';
    const result = await checker.run(
      { cmd: 'grid', grid: digits.value.trim(), mask: mask.join(''), clues: Number($('grid-clues').value), minimal: $('grid-minimal').checked },
      {
        output: ({ out }) => {
          pending += out;
          const lines = pending.split('\n');
          pending = lines.pop();
          found.push(...lines);
          listPuzzles(lines);
        },
        counters: progress,
      },
    );
    $('grid-run').disabled = false;
    $('grid-stop').disabled = true;
    if (result.failed) {
      $('grid-state').textContent = result.message;
      return;
    }
    if (result.killed) {
      $('grid-state').textContent = `stopped (the worker was ended); ${found.length} found`;
      return;
    }
    progress(result);
    // As `xcover gridcheck` prints them: sorted, each once.
    const sorted = [...new Set(found)].sort();
    $('grid-puzzles').textContent = '';
    listPuzzles(sorted);
    $('grid-state').textContent += result.stopped ? ' - stopped' : ' - done';
  }

  async function loadExample() {
    const grid = (await (await fetch('examples/grid.txt')).text()).trim();
    const text = (await (await fetch('examples/grid.mask')).text()).trim();
    digits.value = grid;
    mask = [...text.padEnd(81, '.')].slice(0, 81);
    shownPuzzle = null;
    drawGrid();
    onChange();
  }

  $('sudoku-solve').addEventListener('click', () => solve(2));
  $('sudoku-count').addEventListener('click', () => solve(COUNT_LIMIT));
  $('sudoku-clear').addEventListener('click', () => {
    setPuzzle('');
    $('sudoku-result').textContent = '';
    onChange();
  });
  $('grid-example').addEventListener('click', loadExample);
  $('grid-run').addEventListener('click', check);
  $('grid-stop').addEventListener('click', () => checker.stop());
  digits.addEventListener('input', () => {
    shownPuzzle = null;
    drawGrid();
    onChange();
  });
  $('grid-clues').addEventListener('input', onChange);
  $('sudoku-board').addEventListener('input', onChange);

  return {
    state: () => ({
      puzzle: puzzleText(),
      grid: digits.value,
      mask: mask.join(''),
      clues: $('grid-clues').value,
    }),
    restore(params) {
      if (params.has('puzzle')) setPuzzle(params.get('puzzle'));
      if (params.has('grid')) digits.value = params.get('grid');
      if (params.has('mask')) mask = [...params.get('mask').padEnd(81, '.')].slice(0, 81).map((c) => (CYCLE.includes(c) ? c : '.'));
      if (params.has('clues')) $('grid-clues').value = params.get('clues');
      drawGrid();
    },
  };
}
