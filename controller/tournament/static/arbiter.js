// The arbiter's page: the games of a round with their results, confirm and correct, pair the
// next round, move a game whose board failed to a spare table, retire a broken table (and
// return it), and what the server rejected. What it shows comes from /arbiter/state, fetched
// again whenever the live feed says the event changed; every action answers with the new state.
"use strict";

(() => {
  const {$, make} = Layli;
  let state = null;
  let chosen = null;            // the round picked in the list (null: the latest)
  let fetching = false;
  let stale = false;
  let asked = 0;                // requests made, in order ...
  let drawn = 0;                // ... and the latest whose answer is on show: an answer to an
                                // older one (a refresh overtaken by an action) is dropped

  const WORDS = {1: "1-0", 0.5: "½-½", 0: "0-1"};
  const LANG = "lang=" + Layli.language;     // the page's language, for what the server says
  const resultWords = (result) => result ? WORDS[result.south_points] : "";
  const seedWords = (result) => result ? `${result.south_seeds}-${result.north_seeds}` : "";

  // One line of moves (pit numbers), the ply where the two lines part marked.
  function movesLine(label, moves, ply) {
    const line = make("p", {"class": "moves"}, make("span", {"class": "help"}, label + " "));
    moves.forEach((move, index) => {
      line.append(index + 1 === ply ? make("mark", {}, String(move)) : String(move), " ");
    });
    if (ply > moves.length) line.append(make("mark", {}, Layli._("(no more)")));
    return line;
  }

  function heldRow(item) {
    const decided = {
      accepted: () => Layli._("accepted by %(arbiter)s", {arbiter: item.arbiter}),
      replaced: () => Layli._("replaced by %(arbiter)s's result", {arbiter: item.arbiter}),
      // TRANSLATORS: the held record was not recorded: a later record from the board, which
      // follows the moves it reported, was recorded instead
      superseded: () => Layli._("set aside: the record that follows the board's moves was recorded"),
    }[item.decision];
    let action;
    if (item.decision) {
      action = make("span", {"class": "help"}, decided());
    } else if (!item.newest) {
      // TRANSLATORS: a held result of a game for which a later one is held too
      action = make("span", {"class": "help"}, Layli._("a later one came: see below"));
    } else {
      action = make("button", {type: "button", "data-action": "accept"},
                    Layli._("Accept the record"));
      action.addEventListener("click", () => act("accept", {game: item.game},
        Layli._("%(game)s: the held result is recorded", {game: item.game})));
    }
    return make("tr", {"data-game": item.game},
      make("td", {}, item.game), make("td", {}, item.table),
      make("td", {}, `${resultWords(item.result)} (${seedWords(item.result)})`),
      make("td", {"class": "detail"},
        make("p", {}, item.reason || Layli._("They part at move %(ply)d.", {ply: item.ply})),
        movesLine(Layli._("Reported live:"), item.live, item.ply),
        movesLine(Layli._("The record:"), item.recorded, item.ply)),
      make("td", {}, action));
  }

  function refusalWords(kind) {
    switch (kind) {
      // TRANSLATORS: the broker refused a connection (a wrong password, or another's identity)
      case "login": return Layli._("a login");
      // TRANSLATORS: the broker refused a message on a topic its sender may not use
      case "publish": return Layli._("a message");
      case "subscribe": return Layli._("a subscription");
      // TRANSLATORS: a table connected while already connected; the older connection was closed
      case "again": return Layli._("a second connection");
      // TRANSLATORS: a message larger than the broker takes; its connection was closed
      case "oversized": return Layli._("a message too large");
      // TRANSLATORS: messages of a table over the server's rate limit, dropped unread
      case "limited": return Layli._("too many messages");
      default: return kind;
    }
  }

  function say(words) { $("said").textContent = words; $("error").textContent = ""; }
  function complain(words) { $("error").textContent = words; $("said").textContent = ""; }

  // --- drawing the state ----------------------------------------------------------------------

  function gameRow(game) {
    const confirm = make("button", {type: "button", "data-action": "confirm",
                                    disabled: game.status !== "reported"}, Layli._("Confirm"));
    confirm.addEventListener("click", () => act("confirm", {game: game.game},
      Layli._("board %(board)s's result is confirmed", {board: game.board})));
    const correct = make("button", {type: "button", "data-action": "correct",
                                    disabled: game.bye || !game.result}, Layli._("Correct…"));
    correct.addEventListener("click", () => fillForm(game));
    // a game still being played can move to a spare table (the latest round's only)
    const movable = !game.bye && !game.result && state.round === state.latest_round;
    const move = make("button", {type: "button", "data-action": "move",
                                 disabled: !movable || !state.spare_tables.length},
                     Layli._("Move…"));
    move.addEventListener("click", () => { $("move-game").value = game.game;
                                           $("move-reason").focus(); });
    const by = game.bye ? "" : game.status === "corrected" || game.status === "confirmed"
      // TRANSLATORS: who gave a result: its table's board, which reported it
      ? game.confirmed_by : game.source === "board" ? Layli._("the board") : "";
    return make("tr", {"data-game": game.game, "class": "game-" + game.status},
      make("td", {"class": "number"}, String(game.board)),
      make("td", {}, game.table || "—"),
      make("td", {}, game.south),
      make("td", {}, game.bye ? make("em", {}, Layli._("bye")) : game.north),
      make("td", {"class": "status"}, game.bye ? Layli._("bye")
        : Layli.GAME_STATUS_WORDS[game.status] || game.status),
      make("td", {"class": "result"}, game.bye ? Layli.points(game.result.south_points)
        : resultWords(game.result)),
      make("td", {"class": "seeds"}, game.bye ? "" : seedWords(game.result)),
      make("td", {}, by || ""),
      make("td", {"class": "actions"}, ...(game.bye ? [] : [confirm, correct, move])));
  }

  function show() {
    $("event-name").textContent = state.event;
    // TRANSLATORS: the window's title of the arbiter's page, with the event's name
    document.title = Layli._("arbiter — %(event)s", {event: state.event});
    $("event-line").textContent =
      `${state.variant} · ${Layli.roundWords(state.latest_round, state.rounds)}`;
    $("signed-in").textContent = Layli._("arbiter: %(name)s", {name: state.arbiter});
    const choice = $("round-choice");
    if (choice.options.length !== state.latest_round) {
      choice.replaceChildren(...Array.from({length: state.latest_round},
        (_, i) => new Option(String(i + 1), String(i + 1))));
    }
    choice.value = String(state.round);
    const waiting = state.games.filter((game) => !game.result).length;
    $("round-words").textContent = !state.round ? Layli._("no round is paired yet")
      : waiting ? Layli._("%(waiting)d of %(games)d without a result",
                          {waiting: waiting, games: state.games.length})
      : Layli._("every result is in");
    $("games").replaceChildren(...state.games.map(gameRow));
    const pair = $("pair");
    pair.disabled = !state.can_pair;
    pair.textContent = state.next_round
      ? Layli._("Pair round %(round)d", {round: state.next_round})
      : Layli._("Every round is paired");
    $("pair-words").textContent = state.can_pair || !state.next_round ? ""
      : Layli._("round %(round)d is not over yet", {round: state.latest_round});
    // every game can be corrected, or given its result when its board failed (a bye's
    // points are the event's)
    const select = $("correct-game");
    const keep = select.value;
    select.replaceChildren(...state.games.filter((game) => !game.bye).map(
      (game) => new Option(game.result
        ? Layli._("board %(board)d: %(south)s – %(north)s (%(result)s)",
                  {board: game.board, south: game.south, north: game.north,
                   result: resultWords(game.result)})
        : Layli._("board %(board)d: %(south)s – %(north)s (no result)",
                  {board: game.board, south: game.south, north: game.north}),
        game.game)));
    if ([...select.options].some((option) => option.value === keep)) select.value = keep;
    showMoves();
    showTables();
    const counts = Object.entries(state.rejected_counts);
    $("rejected-counts").textContent = counts.length
      ? "(" + counts.map(([reason, n]) => `${reason}: ${n}`).join(", ") + ")"
      // TRANSLATORS: no message has been rejected
      : Layli._("(none)");
    $("rejected").replaceChildren(...state.rejected.map((item) => make("tr", {},
      make("td", {}, Layli.clock(item.at)), make("td", {}, item.topic),
      make("td", {}, item.reason), make("td", {"class": "detail"}, item.detail),
      make("td", {}, String(item.count)))));
    const undecided = state.held.filter((item) => !item.decision).length;
    $("held-counts").textContent = undecided
      ? "(" + Layli.ngettext("%(n)d to decide", "%(n)d to decide", undecided) + ")"
      // TRANSLATORS: no result is held for the arbiter
      : Layli._("(none)");
    $("held").replaceChildren(...state.held.map(heldRow));
    const refused = state.refused_counts;
    const total = Object.values(refused).reduce((sum, n) => sum + n, 0);
    $("refused-counts").textContent = total
      ? "(" + Layli.ngettext("%(n)d refusal", "%(n)d refusals", total) + ")"
      // TRANSLATORS: the broker has refused nothing
      : Layli._("(none)");
    $("refused").replaceChildren(...state.refused.map((item) => make("tr", {"data-kind": item.kind},
      make("td", {}, Layli.clock(item.last)), make("td", {}, refusalWords(item.kind)),
      make("td", {}, item.who), make("td", {"class": "detail"}, item.what),
      make("td", {}, String(item.count)))));
    $("corrections").replaceChildren(...state.corrections.slice().reverse().map((item) =>
      make("tr", {"data-game": item.game},
        make("td", {}, Layli.clock(item.at)), make("td", {}, item.game),
        make("td", {}, item.old ? `${resultWords(item.old)} (${seedWords(item.old)})`
                                 : Layli._("none (entered by the arbiter)")),
        make("td", {}, `${resultWords(item.new)} (${seedWords(item.new)})`),
        make("td", {}, item.arbiter), make("td", {}, item.reason))));
    Layli.arbiterVersion += 1;
  }

  function showMoves() {
    const games = state.round === state.latest_round
      ? state.games.filter((game) => !game.bye && !game.result) : [];
    const select = $("move-game");
    const keep = select.value;
    select.replaceChildren(...games.map((game) => new Option(
      Layli._("board %(board)d: %(south)s – %(north)s (at %(table)s)",
              {board: game.board, south: game.south, north: game.north, table: game.table}),
      game.game)));
    if ([...select.options].some((option) => option.value === keep)) select.value = keep;
    $("move-table").replaceChildren(...state.spare_tables.map((table) => new Option(table)));
    $("move-submit").disabled = !games.length || !state.spare_tables.length;
    $("move-words").textContent = !games.length
      ? Layli._("every game of this round has its result")
      : state.spare_tables.length ? "" : Layli._("no table is spare this round");
    $("relocations").replaceChildren(...state.relocations.slice().reverse().map((item) =>
      make("tr", {"data-game": item.game},
        make("td", {}, Layli.clock(item.at)), make("td", {}, item.game),
        make("td", {}, item.from), make("td", {}, item.to),
        make("td", {"class": "number"}, String(item.ply)),
        make("td", {}, item.arbiter), make("td", {}, item.reason))));
  }

  function showTables() {
    $("tables").replaceChildren(...state.tables.map((item) => {
      const back = make("button", {type: "button", "data-action": "return"},
                        Layli._("Return to play"));
      back.addEventListener("click", () => act("return", {table: item.table},
        Layli._("%(table)s is back in play", {table: item.table})));
      return make("tr", {"data-table": item.table},
        make("td", {}, item.table), make("td", {}, Layli.tableStatus(item.status)),
        make("td", {"class": "retired"}, item.retired
          ? `${item.retired.reason} (${item.retired.arbiter}, ${Layli.clock(item.retired.at)})`
          : ""),
        make("td", {"class": "actions"}, item.retired ? back : ""));
    }));
    const select = $("retire-table");
    const keep = select.value;
    select.replaceChildren(...state.tables.filter((item) => !item.retired).map(
      (item) => new Option(item.table)));
    if ([...select.options].some((option) => option.value === keep)) select.value = keep;
  }

  function fillForm(game) {
    $("correct-game").value = game.game;
    const points = String(game.result.south_points);
    for (const radio of document.querySelectorAll("input[name=points]")) {
      radio.checked = Number(radio.value) === Number(points);
    }
    $("south-seeds").value = game.result.south_seeds;
    $("north-seeds").value = game.result.north_seeds;
    $("reason").focus();
  }

  // --- talking to the server ------------------------------------------------------------------

  async function refresh() {
    if (fetching) { stale = true; return; }
    fetching = true;
    const ticket = ++asked;
    try {
      const query = (chosen ? "?round=" + chosen + "&" : "?") + LANG;
      const answer = await fetch("/arbiter/state" + query, {cache: "no-store"});
      const body = await answer.json();
      if (ticket < drawn) return;
      if (answer.ok) { drawn = ticket; state = body; show(); } else complain(body.error);
    } catch (error) {
      complain(Layli._("the server did not answer: %(error)s", {error: error}));
    } finally {
      fetching = false;
      if (stale) { stale = false; refresh(); }
    }
  }

  async function act(what, body, done) {
    const ticket = ++asked;
    try {
      const answer = await fetch("/arbiter/" + what + "?" + LANG, {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(body)});
      const reply = await answer.json();
      if (!answer.ok) { complain(reply.error); return false; }
      drawn = Math.max(drawn, ticket);
      state = reply;
      chosen = state.round === state.latest_round ? null : state.round;
      show();
      say(done);
      return true;
    } catch (error) {
      complain(Layli._("the server did not answer: %(error)s", {error: error}));
      return false;
    }
  }

  $("pair").addEventListener("click", () => {
    act("pair", {round: state.next_round},
        Layli._("round %(round)d is paired", {round: state.next_round}));
  });

  $("round-choice").addEventListener("change", () => {
    const round = Number($("round-choice").value);
    chosen = round === state.latest_round ? null : round;
    refresh();
  });

  $("correct").addEventListener("submit", async (event) => {
    event.preventDefault();
    const points = document.querySelector("input[name=points]:checked");
    const game = $("correct-game").value;
    const body = {
      game: game,
      south_points: points ? Number(points.value) : null,
      south_seeds: Number($("south-seeds").value),
      north_seeds: Number($("north-seeds").value),
      reason: $("reason").value,
    };
    const row = state.games.find((g) => g.game === game);
    if (await act("correct", body, Layli._("board %(board)s's result is corrected",
                                          {board: row ? row.board : game}))) {
      $("correct").reset();
    }
  });

  $("move").addEventListener("submit", async (event) => {
    event.preventDefault();
    const game = $("move-game").value;
    const table = $("move-table").value;
    const row = state.games.find((g) => g.game === game);
    if (await act("move", {game: game, table: table, reason: $("move-reason").value},
                  Layli._("board %(board)s moves to %(table)s",
                          {board: row ? row.board : game, table: table}))) {
      $("move").reset();
    }
  });

  $("retire").addEventListener("submit", async (event) => {
    event.preventDefault();
    const table = $("retire-table").value;
    if (await act("retire", {table: table, reason: $("retire-reason").value},
                  Layli._("%(table)s is retired: no round is paired onto it",
                          {table: table}))) {
      $("retire").reset();
    }
  });

  Layli.arbiterVersion = 0;     // states drawn (for tests)
  Layli.follow((message) => {
    // anything that changes what this page shows comes with one of these
    if (["event", "pairings", "standings"].includes(message.type)) refresh();
  }, Layli.showConnection);
})();
