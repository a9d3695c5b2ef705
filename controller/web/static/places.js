// Where a board's places are drawn, and the stones in them: one geometry for every page that
// draws a board (the simulator's board, the tournament's live boards). South's row along the
// bottom from South's left, North's along the top from North's left (the right as we look), so
// sowing counterclockwise runs around the board; South's store on the right, North's on the
// left.
"use strict";

window.Layli = window.Layli || {};

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const PIT = 100;              // the board's grid: one pit a column, 100 units wide

  // an SVG element with these attributes, appended to `parent` when given
  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  // places: 0..n-1 South's pits, n..2n-1 North's, 2n South's store, 2n+1 North's. The board
  // is (n + 2) pits wide and 300 units high; `upright` (a phone held upright) turns it a
  // quarter clockwise, 300 wide and (n + 2) pits high: South's row down the left, North's up
  // the right, North's store at the top, South's at the bottom (still counterclockwise).
  function centre(place, n, upright) {
    let x, y;
    if (place === 2 * n) [x, y] = [(n + 1.5) * PIT, 150];
    else if (place === 2 * n + 1) [x, y] = [0.5 * PIT, 150];
    else if (place < n) [x, y] = [(place + 1.5) * PIT, 235];
    else [x, y] = [(2 * n - place + 0.5) * PIT, 65];
    return upright ? [300 - y, x] : [x, y];
  }

  // the board's size in its own units, [width, height]
  function extent(n, upright) {
    return upright ? [300, (n + 2) * PIT] : [(n + 2) * PIT, 300];
  }

  // up to 22 stones in a pit (40 in a store, along its length) around (x, y), in a sunflower
  // spiral: even, and a stone keeps its spot as others arrive
  function drawStones(group, count, x, y, store, upright) {
    group.textContent = "";
    const shown = Math.min(count, store ? 40 : 22);
    const spread = store ? 28 : 26;
    // (upright, a store's stones keep clear of its label at the left end)
    const [sx, sy] = !store ? [1, 1] : upright ? [2.4, 1] : [1, 3.2];
    for (let i = 0; i < shown; i++) {
      const r = spread * Math.sqrt((i + 0.5) / Math.max(shown, 6));
      const a = i * 2.39996;
      el("circle", {"class": "stone", cx: x + sx * r * Math.cos(a),
                    cy: y + sy * r * Math.sin(a), r: 6.5}, group);
    }
  }

  Object.assign(window.Layli, {PIT: PIT, el: el, centre: centre, extent: extent,
                               drawStones: drawStones});
})();
