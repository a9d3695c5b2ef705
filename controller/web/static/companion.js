// The table companion: draws each state the controller pushes over the WebSocket.
"use strict";

const $ = (id) => document.getElementById(id);

function text(id, words) {
  $(id).textContent = words || "";
}

function draw(state) {
  text("title", state.name + (state.match_hand ? " — hand " + state.match_hand : ""));
  $("title").title = state.title;          // where the rules come from, in the tooltip
  for (const side of [0, 1]) {
    const box = $("player-" + side);
    box.querySelector(".name").textContent = state.players[side];
    const captured = state.captured[side];
    box.querySelector(".captured").textContent = state.scores
      ? "score " + state.scores[side]
      : captured + " seed" + (captured === 1 ? "" : "s") + " captured";
    box.classList.toggle("to-move", !state.waiting && state.to_move === side);
  }
  let turn = "";
  if (state.waiting) turn = "No game yet: " + state.waiting;
  else if (state.over) turn = "Game over: " + state.result;
  else if (state.phase === "setup") turn = "Between hands: set up the board";
  else if (state.to_move !== null) {
    turn = state.players[state.to_move] + (state.moving ? " is sowing" : " to move");
  }
  text("turn", turn);
  $("hint").hidden = !state.hint_words;
  text("hint", state.hint_words ? "Hint: " + state.hint_words : "");
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
                               location.host + "/ws");
  socket.onopen = () => text("connection", "live from the board");
  socket.onmessage = (message) => {
    const state = JSON.parse(message.data);
    if (state.type === "state") draw(state);
    else text("connection", "live: waiting for the board");
  };
  socket.onclose = () => {      // the controller restarted or the network dropped: try again
    text("connection", "not connected to the board: trying again…");
    setTimeout(connect, 1000);
  };
}

connect();
