// The page's state in the URL's fragment (never sent to a server): the view, the DLX3
// input and arguments, the Sudoku puzzle, the checker's grid, mask and clue count. Opening
// such a link puts the same things back on screen.

export function readLink() {
  return new URLSearchParams(location.hash.slice(1));
}

export function writeLink(params) {
  const url = new URL(location.href);
  url.hash = new URLSearchParams(params).toString();
  history.replaceState(null, '', url);
  document.getElementById('link').href = url.href;
}
