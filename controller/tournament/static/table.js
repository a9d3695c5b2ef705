// One table's page: its board, big, live from the server's feed.
"use strict";

(() => {
  const {$, make} = Layli;
  const id = decodeURIComponent(location.pathname.split("/").pop());
  const board = new Layli.Board($("big-board"), true);
  let view = null;
  let pairings = null;

  $("table-name").textContent = id;

  // the game this table plays in the current round, from the pairings
  function game() {
    if (!pairings || !pairings.rounds.length) return null;
    const round = pairings.rounds[pairings.rounds.length - 1];
    const found = round.games.find((g) => g.table === id);
    return found ? Object.assign({round: round.round}, found) : null;
  }

  function show() {
    const assigned = game();
    $("game-line").textContent = assigned
      ? `round ${assigned.round}, board ${assigned.board}` +
        (assigned.result ? " · " + assigned.result : "") : "no game this round";
    if (!view) return;
    const state = view.state;
    $("table-page").dataset.status = view.status;
    $("table-status").textContent = view.status;
    board.draw(state);
    for (const side of [0, 1]) {
      const box = $("side-" + side);
      const named = state && state.players[side];
      const fromPairing = assigned ? [assigned.south, assigned.north][side] : null;
      box.querySelector(".name").textContent =
        `${Layli.SIDES[side]}: ${named || fromPairing || "—"}`;
      box.querySelector(".captured").textContent = state
        ? `${state.captured[side]} captured` : "";
      box.classList.toggle("to-move", !!state && state.status === "playing" &&
                                      state.to_move === side);
    }
    $("turn").textContent = Layli.turnWords(view);
    const faults = state ? state.faults : [];
    $("faults-box").hidden = faults.length === 0;
    $("faults").replaceChildren(...faults.map((words) => make("li", {}, words)));
    $("heard").textContent = "last heard from: " + Layli.clock(view.at) +
      (view.presence === "offline" ? " (offline)" : "");
  }

  Layli.follow((message) => {
    if (message.type === "event") Layli.showEvent(message, id);
    else if (message.type === "pairings") { pairings = message; show(); }
    else if (message.type === "table" && message.table === id) { view = message; show(); }
  }, Layli.showConnection);
})();
