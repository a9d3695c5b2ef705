// A table's board drawn from its state message: the pits with their counts, the Uurs in
// their owner's colour, the stores with what each side has captured, and whose turn it is.
// The places sit as on the virtual board (simulator/ui): places.js has their geometry.
"use strict";

(() => {
  const {PIT, el, centre, drawStones} = window.Layli;
  const SIDES = ["South", "North"];                         // as data-uur keeps them
  const SIDE_NAMES = [Layli._("South"), Layli._("North")];  // as the reader reads them
  // the labels of a side's store and pits, and its letter on a small board
  const LABELS = [
    // TRANSLATORS: the label under South's store on a table's board
    {store: Layli._("S store"),
     // TRANSLATORS: South's pit on a table's board, as its label reads (S1 ... S6)
     pit: (pit) => Layli._("S%(pit)d", {pit: pit}),
     // TRANSLATORS: the label under South's store on the small boards of the live page
     letter: Layli._("S")},
    // TRANSLATORS: the label under North's store on a table's board
    {store: Layli._("N store"),
     // TRANSLATORS: North's pit on a table's board, as its label reads (N1 ... N6)
     pit: (pit) => Layli._("N%(pit)d", {pit: pit}),
     // TRANSLATORS: the label under North's store on the small boards of the live page
     letter: Layli._("N")},
  ];

  class Board {
    // `svg`: an <svg> element to draw in; `big`: pit names and stones (the table's own page)
    constructor(svg, big) {
      this.svg = svg;
      this.big = big;
      this.n = null;
    }

    layout(n) {
      const svg = this.svg;
      svg.textContent = "";
      svg.setAttribute("viewBox", `0 0 ${(n + 2) * PIT} 300`);
      svg.classList.add("live-board");
      for (let place = 0; place < 2 * n + 2; place++) {
        const [x, y] = centre(place, n);
        const store = place >= 2 * n;
        const side = store ? place - 2 * n : Math.floor(place / n);
        const group = el("g", {"class": "place side-" + side, "data-place": place}, svg);
        if (store) {
          el("rect", {"class": "store", x: x - 33, y: 27, width: 66, height: 246, rx: 33}, group);
          el("text", {"class": "label", x: x, y: 296}, group).textContent =
            this.big ? LABELS[side].store : LABELS[side].letter;
        } else {
          el("circle", {"class": "uur-ring", cx: x, cy: y, r: 44}, group);
          el("circle", {"class": "pit", cx: x, cy: y, r: 38}, group);
          // the Uur's word as well as its colour
          el("text", {"class": "uur-word", x: x - 30, y: y - 20}, group).textContent = "U";
          if (this.big) {
            el("text", {"class": "label", x: x, y: place < n ? y + 62 : y - 50}, group)
              .textContent = LABELS[side].pit(place % n + 1);
          }
        }
        if (this.big) {
          // stones, and the count on a badge at the pit's lower right, clear of them
          el("g", {"class": "stones"}, group);
          const [bx, by] = store ? [x, 258] : [x + 34, y + 32];
          el("circle", {"class": "badge", cx: bx, cy: by, r: 14}, group);
          el("text", {"class": "count", x: bx, y: by + 6}, group);
        } else {
          el("text", {"class": "count", x: x, y: store ? 162 : y + 12}, group);
        }
      }
      this.n = n;
    }

    // `state`: the table's state message's board (pits, uur, captured, to_move), or null:
    // no game on it yet
    draw(state) {
      this.svg.classList.toggle("no-game", !state);
      if (!state) {
        if (this.n === null) this.layout(6);
        for (const count of this.svg.querySelectorAll(".count")) count.textContent = "";
        for (const group of this.svg.querySelectorAll(".stones")) group.textContent = "";
        return;
      }
      const n = state.pits.length / 2;
      if (this.n !== n) this.layout(n);
      const counts = state.pits.concat(state.captured);
      for (const group of this.svg.querySelectorAll(".place")) {
        const place = Number(group.dataset.place);
        const count = counts[place];
        group.dataset.count = count;
        group.querySelector(".count").textContent = count;
        const owner = place < 2 * n ? state.uur[place] : null;
        group.classList.toggle("uur", owner !== null && owner !== undefined);
        group.classList.toggle("uur-0", owner === 0);
        group.classList.toggle("uur-1", owner === 1);
        if (owner !== null && owner !== undefined) group.dataset.uur = SIDES[owner];
        else delete group.dataset.uur;
        const side = place < 2 * n ? Math.floor(place / n) : place - 2 * n;
        group.classList.toggle("to-move", state.status === "playing" && state.to_move === side);
        if (this.big) {
          const [x, y] = centre(place, n);
          drawStones(group.querySelector(".stones"), count, x, y, place >= 2 * n);
        }
      }
    }
  }

  // the words under a board: whose turn, the ply, the last move
  function turnWords(view) {
    const state = view.state;
    if (!state) return Layli._("no game on the board yet");
    const names = state.players.map((name, side) => name || SIDE_NAMES[side]);
    const words = [];
    if (state.status === "finished") words.push(Layli._("game over"));
    else if (state.status === "idle") words.push(Layli._("waiting for the game to start"));
    else words.push(Layli._("%(player)s to move", {player: names[state.to_move]}));
    // TRANSLATORS: a ply is one player's move: the game's ply 7 is its seventh move
    words.push(Layli._("ply %(ply)d", {ply: state.ply}));
    const last = view.last_move;
    if (last && last.game === state.game) {
      words.push(Layli._("last move: pit %(pit)d (ply %(ply)d)", {pit: last.move, ply: last.ply}));
    }
    return words.join(" · ");
  }

  window.Layli = window.Layli || {};
  Object.assign(window.Layli, {Board: Board, turnWords: turnWords, SIDES: SIDES,
                               SIDE_NAMES: SIDE_NAMES});
})();
