// The live page: the event, the pairings, the standings and a card for every table, each
// drawn again when the server's feed sends its new version (nothing is asked for: no polling).
"use strict";

(() => {
  const {$, make} = Layli;
  let event = null;
  let pairings = null;
  const cards = new Map();      // table id -> {node, board, view}: its card

  // --- the header ---------------------------------------------------------------------------

  function showCounters() {
    if (!event) return;
    const parts = [];
    const current = pairings && pairings.rounds.find((r) => r.round === event.round);
    if (current) {
      const done = current.games.filter((game) => game.result !== null).length;
      parts.push(Layli._("round %(round)d: %(done)d of %(games)d finished",
                         {round: event.round, done: done, games: current.games.length}));
    }
    const counters = event.counters || {};
    parts.push(Layli.ngettext("%(n)d result recorded", "%(n)d results recorded",
                              counters.recorded || 0));
    if (counters.duplicates) {
      parts.push(Layli.ngettext("%(n)d copy of a recorded result ignored",
                                "%(n)d copies of a recorded result ignored", counters.duplicates));
    }
    parts.push(Layli.ngettext("%(n)d message rejected", "%(n)d messages rejected",
                              counters.rejected || 0));
    $("counters").textContent = parts.join(" · ");
  }

  // --- pairings -----------------------------------------------------------------------------

  function gameRow(game) {
    const bye = game.north === null;
    return make("tr", {"data-game": game.game, "class": "game-" + game.status},
      make("td", {"class": "number"}, String(game.board)),
      make("td", {}, bye ? "—" : make("a", {href: "/table/" + game.table}, game.table)),
      make("td", {}, game.south),
      // TRANSLATORS: a player with no opponent this round, who has the bye's points
      make("td", {}, bye ? make("em", {}, Layli._("bye")) : game.north),
      make("td", {"class": "status"},
           bye ? Layli._("bye") : Layli.GAME_STATUS_WORDS[game.status] || game.status),
      make("td", {"class": "result"}, game.result || ""));
  }

  function showPairings() {
    const box = $("pairings");
    box.querySelectorAll(".round").forEach((node) => node.remove());
    $("no-pairings").hidden = pairings.rounds.length > 0;
    // the current round first
    for (const round of pairings.rounds.slice().reverse()) {
      const head = make("tr", {}, ...[Layli._("Board"), Layli._("Table"), Layli._("South"),
                                       Layli._("North"), Layli._("Status"), Layli._("Result")]
        .map((words) => make("th", {scope: "col"}, words)));
      box.append(make("section", {"class": "round", "data-round": round.round},
        make("h2", {}, Layli._("Round %(round)d", {round: round.round})),
        make("table", {"class": "grid"}, make("thead", {}, head),
          make("tbody", {}, ...round.games.map(gameRow)))));
    }
    showCounters();
    for (const id of cards.keys()) showPlayers(id);
  }

  // --- standings ----------------------------------------------------------------------------

  function showStandings(standings) {
    const tiebreaks = standings.tiebreaks;
    const titles = [Layli._("Rank"), Layli._("Name"), Layli._("Points"), Layli._("Games"),
      // TRANSLATORS: the standings' columns of games won, drawn and lost (W, D, L): one letter each
      Layli._("W"), Layli._("D"), Layli._("L")]
      .concat(tiebreaks.map((name) => Layli.TIEBREAK_TITLES[name] || name));
    $("standings-head").replaceChildren(
      ...titles.map((words) => make("th", {scope: "col"}, words)));
    $("standings-rows").replaceChildren(...standings.rows.map((row) => make("tr",
      {"data-player": row.number},
      make("td", {"class": "number"}, String(row.rank)),
      make("td", {}, row.name),
      make("td", {"class": "number points"}, Layli.points(row.points)),
      make("td", {"class": "number"}, String(row.games)),
      make("td", {"class": "number"}, String(row.wins)),
      make("td", {"class": "number"}, String(row.draws)),
      make("td", {"class": "number"}, String(row.losses)),
      ...tiebreaks.map((name) => make("td", {"class": "number", "data-tiebreak": name},
                                      Layli.tiebreak(name, row[name]))))));
  }

  // --- tables -------------------------------------------------------------------------------

  // the game a table plays in the current round, from the pairings
  function gameAt(id) {
    if (!pairings || !pairings.rounds.length) return null;
    const round = pairings.rounds[pairings.rounds.length - 1];
    return round.games.find((game) => game.table === id) || null;
  }

  function card(id) {
    let entry = cards.get(id);
    if (entry) return entry;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    const node = make("a", {"class": "card", href: "/table/" + id, "data-table": id},
      make("div", {"class": "card-head"},
        make("span", {"class": "table-name"}, id),
        make("span", {"class": "table-status"})),
      make("div", {"class": "players"}),
      svg,
      make("div", {"class": "turn"}),
      make("ul", {"class": "faults"}));
    entry = {node: node, board: new Layli.Board(svg, false)};
    cards.set(id, entry);
    // in table order, whatever order the feed sends them in
    const after = [...cards.keys()].sort(Layli.natural)
      .find((other) => Layli.natural(other, id) > 0);
    $("cards").insertBefore(node, after ? cards.get(after).node : null);
    return entry;
  }

  function showPlayers(id) {
    const game = gameAt(id);
    const view = cards.get(id).view;
    const state = view && view.state;
    let words = Layli._("no game this round");
    if (game) {
      words = Layli._("board %(board)d: %(south)s – %(north)s",
                      {board: game.board, south: game.south, north: game.north});
    }
    else if (state && state.players.some((name) => name)) words = state.players.join(" – ");
    cards.get(id).node.querySelector(".players").textContent = words;
  }

  function showTable(view) {
    const entry = card(view.table);
    entry.view = view;
    const node = entry.node;
    node.dataset.status = view.status;
    node.toggleAttribute("data-retired", Boolean(view.retired));
    node.querySelector(".table-status").textContent = view.retired ? Layli._("retired")
      : Layli.tableStatus(view.status);
    entry.board.draw(view.state);
    node.querySelector(".turn").textContent = view.retired
      ? Layli._("out of play: %(reason)s", {reason: view.retired})
      : view.status === "offline" && !view.state ? Layli._("not heard from")
      : Layli.turnWords(view);
    const faults = view.state ? view.state.faults : [];
    node.querySelector(".faults").replaceChildren(...faults.map((words) => make("li", {}, words)));
    showPlayers(view.table);
  }

  // --- the views and the feed ---------------------------------------------------------------

  function choose(name) {
    for (const tab of document.querySelectorAll("#views [role=tab]")) {
      const chosen = tab.dataset.view === name;
      tab.setAttribute("aria-selected", chosen);
      $(tab.dataset.view).hidden = !chosen;
    }
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
  }
  for (const tab of document.querySelectorAll("#views [role=tab]")) {
    tab.addEventListener("click", () => choose(tab.dataset.view));
  }
  const fromHash = () => {
    const name = location.hash.slice(1);
    if (["pairings", "standings", "tables"].includes(name)) choose(name);
  };
  window.addEventListener("hashchange", fromHash);
  fromHash();

  Layli.follow((message) => {
    if (message.type === "event") {
      event = message;
      // TRANSLATORS: the window's title of the live page: what it shows, and the event's name
      Layli.showEvent(event, (name) => Layli._("live — %(event)s", {event: name}));
      showCounters();
    }
    else if (message.type === "pairings") { pairings = message; showPairings(); }
    else if (message.type === "standings") showStandings(message);
    else if (message.type === "table") showTable(message);
  }, Layli.showConnection);
})();
