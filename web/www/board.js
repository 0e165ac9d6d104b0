// A 9x9 board: typed cells (`inputs`) or clickable ones; cells 0..80 row by row.

export function makeBoard(root, { typed, onClick } = {}) {
  const cells = [];
  for (let i = 0; i < 81; i++) {
    const cell = document.createElement(typed ? 'input' : 'div');
    cell.className = `cell r${Math.floor(i / 9)} c${i % 9}`;
    cell.dataset.cell = String(i);
    if (typed) {
      cell.maxLength = 1;
      cell.inputMode = 'numeric';
      cell.autocomplete = 'off';
      cell.setAttribute('aria-label', `row ${Math.floor(i / 9) + 1} column ${(i % 9) + 1}`);
      cell.addEventListener('input', () => {
        cell.value = cell.value.replace(/[^1-9]/g, '');
        cell.classList.remove('solved');
        if (cell.value && i < 80) cells[i + 1].focus();
      });
      cell.addEventListener('keydown', (e) => {
        const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -9, ArrowDown: 9 };
        if (e.key in moves) {
          const j = i + moves[e.key];
          if (j >= 0 && j < 81) cells[j].focus();
          e.preventDefault();
        } else if (e.key === 'Backspace' && !cell.value && i > 0) {
          cells[i - 1].focus();
        }
      });
    } else if (onClick) {
      cell.addEventListener('click', () => onClick(i));
    }
    root.append(cell);
    cells.push(cell);
  }
  return cells;
}
