// What every tournament page shares: the live feed over one WebSocket, which reconnects by
// itself, and small helpers to build elements and to write points, results and times. The
// words are in the page's language: Layli._ and Layli.ngettext (/static/words.js, loaded first).
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

// the keys are the server's (the standings' tiebreaks), the titles the reader's
Layli.TIEBREAK_TITLES = {
  direct_encounter: Layli._("Direct encounter"),
  buchholz: "Buchholz",                 // named after their inventors: the same everywhere
  sonneborn_berger: "Sonneborn-Berger",
  seed_difference: Layli._("Seed difference"),
};

// a game's status (the key, as the server sends it) in words
Layli.GAME_STATUS_WORDS = {
  assigned: Layli._("waiting to start"),
  playing: Layli._("playing"),
  reported: Layli._("result from the board"),
  confirmed: Layli._("confirmed"),
  corrected: Layli._("corrected by the arbiter"),
};

// a table's status (the key, as the server sends it; pages keep it in data-status) in words
Layli.TABLE_STATUS_WORDS = {
  online: Layli._("online"),
  offline: Layli._("offline"),
  // TRANSLATORS: a game's or a table's status: the game is being played
  playing: Layli._("playing"),
  // TRANSLATORS: a table's status: a sensor of its board has failed
  fault: Layli._("fault"),
};
Layli.tableStatus = (status) => Layli.TABLE_STATUS_WORDS[status] || status;

// a time in seconds since the epoch as the local clock shows it, in the page's language
Layli.clock = (seconds) => seconds
  ? new Date(seconds * 1000).toLocaleTimeString(Layli.language || [], {hour12: false}) : "—";

// table-2 before table-10
Layli.natural = (a, b) => a.localeCompare(b, undefined, {numeric: true});

// Follow the server's live feed: `handle(message)` for each message (one JSON object with a
// "type"), `connected(yes)` when the connection comes and goes. After a reconnect the server
// sends the latest of everything again, so a page only ever draws what it is sent.
Layli.follow = (handle, connected) => {
  let retry = 250;
  const open = () => {
    // in the page's language (as the page was, even from a ?lang= without a cookie)
    const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
                                 location.host + "/ws?lang=" + Layli.language);
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

// the connection line under the event's name: this page's link to the server, and the
// server's to the broker the tables talk to (the event's `broker`)
let pageUp = false;
let brokerUp = true;
function showLinks() {
  const line = Layli.$("connection");
  // TRANSLATORS: the page is connected to the server and follows the event as it happens
  line.textContent = !pageUp ? Layli._("not connected to the server: trying again…")
    : brokerUp ? Layli._("live")
    : Layli._("the server has lost the tables' broker: reconnecting…");
  line.classList.toggle("lost", !pageUp || !brokerUp);
}
Layli.showConnection = (yes) => { pageUp = yes; showLinks(); };

// the event's header: name, variant, round r of R; `title(name)` is the window's title: what
// the page shows at the event called `name`
Layli.showEvent = (event, title) => {
  brokerUp = event.broker !== false;
  showLinks();
  Layli.$("event-name").textContent = event.name;
  document.title = title(event.name);
  const system = event.system === "round-robin" ? Layli._("round robin") : Layli._("Swiss");
  Layli.$("event-line").textContent =
    `${event.variant} · ${system} · ${Layli.roundWords(event.round, event.rounds)}`;
};

// where the event is: "round 2 of 5", or "5 rounds, not paired yet"
Layli.roundWords = (round, rounds) => round
  ? Layli._("round %(round)d of %(rounds)d", {round: round, rounds: rounds})
  : Layli.ngettext("%(n)d round, not paired yet", "%(n)d rounds, not paired yet", rounds);
