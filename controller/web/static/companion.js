// The table companion: draws each state the controller pushes over the WebSocket.
"use strict";

const $ = (id) => document.getElementById(id);
const {_, ngettext} = window.Layli;        // words.js: the page's language

function text(id, words) {
  $(id).textContent = words || "";
}

function draw(state) {
  text("title", state.match_hand
    ? _("%(name)s — hand %(hand)s", {name: state.name, hand: state.match_hand}) : state.name);
  $("title").title = state.title;          // where the rules come from, in the tooltip
  for (const side of [0, 1]) {
    const box = $("player-" + side);
    box.querySelector(".name").textContent = state.players[side];
    const captured = state.captured[side];
    box.querySelector(".captured").textContent = state.scores
      ? _("score %(n)s", {n: state.scores[side]})
      : ngettext("%(n)s seed captured", "%(n)s seeds captured", captured);
    box.classList.toggle("to-move", !state.waiting && state.to_move === side);
  }
  let turn = "";
  if (state.waiting) turn = _("No game yet: %(why)s", {why: state.waiting});
  else if (state.over) turn = _("Game over: %(result)s", {result: state.result});
  else if (state.phase === "setup") turn = _("Between hands: set up the board");
  else if (state.to_move !== null) {
    const who = {player: state.players[state.to_move]};
    turn = state.moving ? _("%(player)s is sowing", who) : _("%(player)s to move", who);
  }
  text("turn", turn);
  $("hint").hidden = !state.hint_words;
  text("hint", state.hint_words ? _("Hint: %(hint)s", {hint: state.hint_words}) : "");
  $("setup-box").hidden = !state.setup;
  text("setup", state.setup);
  $("faults-box").hidden = state.faults.length === 0;
  $("faults").replaceChildren(...state.faults.map((fault) => {
    const item = document.createElement("li");
    item.textContent = fault.words;
    item.dataset.place = fault.place;
    return item;
  }));
  text("moves", state.moves);
  $("events").replaceChildren(...state.events.slice().reverse().map((words) => {
    const item = document.createElement("li");
    item.textContent = words;
    return item;
  }));
}

function connect() {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
                               location.host + "/ws?lang=" + window.Layli.language);
  socket.onopen = () => text("connection", _("live from the board"));
  socket.onmessage = (message) => {
    const state = JSON.parse(message.data);
    if (state.type === "state") draw(state);
    else text("connection", _("live: waiting for the board"));
  };
  socket.onclose = () => {      // the controller restarted or the network dropped: try again
    text("connection", _("not connected to the board: trying again…"));
    setTimeout(connect, 1000);
  };
}

connect();
