// What every tournament page shares: the live feed over one WebSocket, which reconnects by
// itself, and small helpers to build elements and to write points, results and times.
"use strict";

const Layli = (window.Layli = window.Layli || {});

Layli.$ = (id) => document.getElementById(id);

// an HTML element with attributes (class, data-*, href, ...) and children (text or nodes);
// text always goes in as text, never as markup: players and tables name themselves
Layli.make = (tag, attrs, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
};

// 1.5 -> "1½", 0.5 -> "½", -0.5 -> "-½", 2 -> "2"; anything else as it is (a
// Sonneborn-Berger of 2.75)
Layli.points = (value) => {
  if (value === null || value === undefined) return "—";
  const size = Math.abs(value);
  const whole = Math.floor(size);
  if (size - whole !== 0.5) return String(value);
  return (value < 0 ? "-" : "") + (whole ? String(whole) : "") + "½";
};

// a tie-break's value as the standings show it (None: not applied)
Layli.tiebreak = (name, value) => {
  if (value === null || value === undefined) return "—";
  if (name === "seed_difference") return value > 0 ? "+" + value : String(value);
  return Layli.points(value);
};

Layli.TIEBREAK_TITLES = {
  direct_encounter: "Direct encounter",
  buchholz: "Buchholz",
  sonneborn_berger: "Sonneborn-Berger",
  seed_difference: "Seed difference",
};

Layli.GAME_STATUS_WORDS = {
  assigned: "waiting to start",
  playing: "playing",
  reported: "result from the board",
  confirmed: "confirmed",
  corrected: "corrected by the arbiter",
};

// a time in seconds since the epoch as the local clock shows it
Layli.clock = (seconds) => seconds
  ? new Date(seconds * 1000).toLocaleTimeString([], {hour12: false}) : "—";

// table-2 before table-10
Layli.natural = (a, b) => a.localeCompare(b, undefined, {numeric: true});

// Follow the server's live feed: `handle(message)` for each message (one JSON object with a
// "type"), `connected(yes)` when the connection comes and goes. After a reconnect the server
// sends the latest of everything again, so a page only ever draws what it is sent.
Layli.follow = (handle, connected) => {
  let retry = 250;
  const open = () => {
    const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
                                 location.host + "/ws");
    socket.onopen = () => { retry = 250; if (connected) connected(true); };
    socket.onmessage = (event) => {
      handle(JSON.parse(event.data));
      Layli.received += 1;
    };
    socket.onclose = () => {
      if (connected) connected(false);
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 5000);      // the server restarting: back off a little
    };
  };
  open();
};
Layli.received = 0;     // messages drawn so far (for tests and the curious)

// the connection line under the event's name
Layli.showConnection = (yes) => {
  const line = Layli.$("connection");
  line.textContent = yes ? "live" : "not connected to the server: trying again…";
  line.classList.toggle("lost", !yes);
};

// the event's header: name, variant, round r of R; the window's title says `what` the page
// shows at that event
Layli.showEvent = (event, what) => {
  Layli.$("event-name").textContent = event.name;
  document.title = what + " — " + event.name;
  const system = event.system === "round-robin" ? "round robin" : "Swiss";
  const round = event.round ? `round ${event.round} of ${event.rounds}`
    : `${event.rounds} round${event.rounds === 1 ? "" : "s"}, not paired yet`;
  Layli.$("event-line").textContent = `${event.variant} · ${system} · ${round}`;
};
