// The page: two views (DLX3, Sudoku), and the link that reproduces what is on screen.
import { dlx3View } from './dlx3-view.js';
import { sudokuView } from './sudoku-view.js';
import { readLink, writeLink } from './link.js';

let view = 'dlx3';
let views = null;

function saveLink() {
  if (!views) return;
  const params = { view };
  Object.assign(params, view === 'dlx3' ? views.dlx3.state() : views.sudoku.state());
  writeLink(params);
}

function show(name) {
  view = name === 'sudoku' ? 'sudoku' : 'dlx3';
  for (const v of ['dlx3', 'sudoku']) {
    document.getElementById(`view-${v}`).hidden = v !== view;
    document.getElementById(`tab-${v}`).setAttribute('aria-selected', String(v === view));
  }
  saveLink();
}

async function start() {
  views = { dlx3: dlx3View({ onChange: saveLink }), sudoku: sudokuView({ onChange: saveLink }) };
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => show(tab.dataset.view));
  await views.dlx3.ready;
  const params = readLink();
  if (params.has('input')) {
    views.dlx3.restore(params);
  } else {
    // A first visit: the first example.
    if (document.getElementById('dlx3-example').options.length > 1) await views.dlx3.choose(1);
    views.dlx3.restore(params);
  }
  views.sudoku.restore(params);
  show(params.get('view') || 'dlx3');
  // A link opened in this tab (the fragment changed, the page did not reload).
  addEventListener('hashchange', () => {
    const changed = readLink();
    views.dlx3.restore(changed);
    views.sudoku.restore(changed);
    show(changed.get('view') || 'dlx3');
  });
  document.body.dataset.ready = 'true';
}

start();
