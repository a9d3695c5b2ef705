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
      ? Layli._("round %(round)d, board %(board)d",
                {round: assigned.round, board: assigned.board}) +
        (assigned.result ? " · " + assigned.result : "") : Layli._("no game this round");
    if (!view) return;
    const state = view.state;
    $("table-page").dataset.status = view.status;
    $("table-status").textContent = Layli.tableStatus(view.status);
    board.draw(state);
    for (const side of [0, 1]) {
      const box = $("side-" + side);
      const named = state && state.players[side];
      const fromPairing = assigned ? [assigned.south, assigned.north][side] : null;
      const name = named || fromPairing || "—";
      box.querySelector(".name").textContent = side === 0
        ? Layli._("South: %(name)s", {name: name}) : Layli._("North: %(name)s", {name: name});
      // TRANSLATORS: the seeds a side has captured (in its store)
      box.querySelector(".captured").textContent = state ? Layli.ngettext(
        "%(n)d captured", "%(n)d captured", state.captured[side]) : "";
      box.classList.toggle("to-move", !!state && state.status === "playing" &&
                                      state.to_move === side);
    }
    $("turn").textContent = Layli.turnWords(view);
    const faults = state ? state.faults : [];
    $("faults-box").hidden = faults.length === 0;
    $("faults").replaceChildren(...faults.map((words) => make("li", {}, words)));
    $("heard").textContent = view.presence === "offline"
      ? Layli._("last heard from: %(time)s (offline)", {time: Layli.clock(view.at)})
      : Layli._("last heard from: %(time)s", {time: Layli.clock(view.at)});
  }

  Layli.follow((message) => {
    if (message.type === "event") Layli.showEvent(message, (name) => id + " — " + name);
    else if (message.type === "pairings") { pairings = message; show(); }
    else if (message.type === "table" && message.table === id) { view = message; show(); }
  }, Layli.showConnection);
})();
