// The board in the browser: draws the state the server sends and sends the person's actions.
// The page decides nothing about the game: the server's guide says what every LED shows.
"use strict";

const {PIT, el, centre, extent, drawStones} = window.Layli;  // places.js: the board's geometry
const {_, ngettext} = window.Layli;                          // words.js: the page's language
const SIDES = [_("South"), _("North")];
// a phone held upright: the board turned a quarter, its rows down the screen
const UPRIGHT = window.matchMedia("(orientation: portrait) and (max-width: 700px)");
const MIN_PIT_PX = 48;        // a pit at least this wide on screen, for a fingertip
const $ = (id) => document.getElementById(id);

let hello = null;             // the server's first message: variants, palette, legend
let state = null;             // the latest state
let drawnFor = null;          // the pits per row and the way up the board was drawn for
let dragFrom = null;          // the place a press started on, and the pointer pressing it
let dragPointer = null;
let oneSeed = false;          // "one seed" is pressed: the next place pressed gives one seed
let answerDue = 0;            // until when a press on the board waits for its answer (ms)
let socket = null;
let formFilled = false;
let howtoFor = null;          // the variant whose rules the "how to play" part tells
let meaning = {};             // a light's pattern -> what it means (the legend's words)

const isStore = (place) => state && place >= 2 * state.n;

function drawBoard(n) {
  const board = $("board");
  const upright = UPRIGHT.matches;
  board.textContent = "";
  const [width, height] = extent(n, upright);
  board.setAttribute("viewBox", `0 0 ${width} ${height}`);
  $("table").classList.toggle("upright", upright);
  sizeBoard(n, upright);
  for (let place = 0; place < 2 * n + 2; place++) {
    const [x, y] = centre(place, n, upright);
    // each place a button for the keyboard and screen readers: its name, count and light
    const group = el("g", {"class": "place", "data-place": place, role: "button",
                           tabindex: 0}, board);
    // its label and count are drawn beside the button, not in it, and hidden from screen
    // readers: the button's own name says both (with its light), and says it once
    const marks = el("g", {"class": "marks", "aria-hidden": "true"}, board);
    // a store is a long rounded box across the board's end (its length along the short side)
    const box = (half, long) => upright
      ? {x: x - long, y: y - half, width: 2 * long, height: 2 * half, rx: half}
      : {x: x - half, y: y - long, width: 2 * half, height: 2 * long, rx: half};
    if (place >= 2 * n) {
      // upright, as thick as a pit (a fingertip's target on a phone)
      const thick = upright ? 44 : 40;
      el("rect", {"class": "ring", ...box(thick, 130), "data-place": place}, group);
      el("rect", {"class": "store", ...box(thick - 7, 123)}, group);
      const label = el("text", upright ? {"class": "label start", x: x - 118, y: y + 5}
                                       : {"class": "label", x: x, y: 286}, marks);
      label.textContent = place === 2 * n ? _("S store") : _("N store");
      // a long word for a store ("bakhaar K", "magazzino S") kept clear of the board's
      // rounded corner
      // (by its letters: the board may be drawn before the page is laid out)
      if (!upright && label.textContent.length > 7) {
        label.setAttribute("textLength", 56);
        label.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    } else {
      el("circle", {"class": "ring", cx: x, cy: y, r: 44, "data-place": place}, group);
      el("circle", {"class": "pit", cx: x, cy: y, r: 38}, group);
      const own = place % n + 1;
      const south = place < n;
      el("text", {"class": "label", ...(upright ? {x: south ? x + 62 : x - 62, y: y + 5}
                                                 : {x: x, y: south ? y + 62 : y - 50})}, marks)
        .textContent = (south ? _("S") : _("N")) + own;
    }
    el("g", {"class": "stones"}, group);
    // the count on a badge at the pit's lower right, clear of the stones (a store's: near
    // its end)
    const [bx, by] = place < 2 * n ? [x + 34, y + 32] : upright ? [x + 108, y] : [x, 258];
    el("circle", {"class": "badge", cx: bx, cy: by, r: 14}, marks);
    el("text", {"class": "count", x: bx, y: by + 6, "data-place": place}, marks);
    // the light's symbol at the other corner (its meaning without colour or rhythm)
    const [gx, gy] = place < 2 * n ? [x - 34, y - 22] : upright ? [x + 72, y + 7] : [x, 52];
    el("text", {"class": "glyph", x: gx, y: gy, "data-place": place}, marks);
    group.addEventListener("contextmenu", (event) => {
      event.preventDefault();
      press(place, true);
    });
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        press(place, event.shiftKey);
      } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        event.preventDefault();
        event.stopPropagation();
        focusPlace(nextPlace(place, event.key === "ArrowRight" ? 1 : -1));
      }
    });
  }
  const hand = el("g", {id: "handmark", visibility: "hidden"}, board);
  el("circle", {r: 15}, hand);
  el("text", {y: 5}, hand);
  drawnFor = n + (upright ? "upright" : "");
}

// upright, the board takes what height it needs for pits a fingertip wide, and no more than
// two thirds of the screen when it can; lying flat, the page's width (the stylesheet's)
function sizeBoard(n, upright) {
  const board = $("board");
  if (!upright) {
    board.style.width = board.style.height = "";
    return;
  }
  const [width, height] = extent(n, upright);
  const fit = 0.66 * window.innerHeight / height;         // px a unit
  const fingertip = MIN_PIT_PX / 76;                       // a pit is 76 units across
  const scale = Math.min(Math.max(fit, fingertip), 0.62 * document.documentElement.clientWidth
                         / width);
  board.style.width = `${Math.round(width * scale)}px`;
  board.style.height = `${Math.round(height * scale)}px`;
}

// the places in the order they are drawn, left to right: North's row (n..1), South's (1..n),
// then the stores; the arrow keys move along it
function nextPlace(place, step) {
  const n = state.n;
  const order = [2 * n + 1];
  for (let own = n; own >= 1; own--) order.push(n + own - 1);
  for (let own = 1; own <= n; own++) order.push(own - 1);
  order.push(2 * n);
  const at = order.indexOf(place);
  return order[(at + step + order.length) % order.length];
}

function focusPlace(place) {
  const group = document.querySelector(`#board .place[data-place="${place}"]`);
  if (group) group.focus();
}

// a place as the players name it (the server's words: controller.board.view)
function placeWords(place) { return state.place_names[place]; }

// the pit of the player to move numbered `own` (1..n), played as the page plays it: in the
// play way, the move is sown for them
function playOwn(own) {
  if (state.way === "play" && state.phase === "await" && !state.hand && state.to_move !== null) {
    send({action: "play", pit: own});
    return true;
  }
  return false;
}

// the lights that ask for one seed out of their place: an Uur's seed, a seed in the wrong
// pit, a seed too many
const ONE_SEED_OUT = ["uur_from", "flash", "more"];

// a click or a tap: in the play way, a pit of the mover's row at the start of a move is
// played for them; else one seed out where the light asks for it (or "one seed" is pressed,
// or with shift, alt or the right button), lift a pit (hand empty), drop a seed (hand
// holding), or put the hand into a store
function press(place, takeOut) {
  // a second press before the board answered the first (a double-click) would act on a
  // board that has already changed: it waits for the answer, then counts again
  if (answerDue > performance.now()) return;
  const n = state.n;
  if (!takeOut && !isStore(place) && Math.floor(place / n) === state.to_move &&
      playOwn(place % n + 1)) return;
  const pattern = state.places[place][1];
  if (oneSeed) {
    setOneSeed(false);
    takeOut = true;
  } else if (!takeOut) {
    // what the light asks, in one tap: a pit to empty into the lit store goes there; an Uur's
    // seed goes from the place that gives it; a place asking for one seed out gives one
    const store = [2 * n, 2 * n + 1].find((s) => state.places[s][1] === "steady");
    const from = state.places.findIndex((p) => p[1] === "uur_from");
    if (pattern === "take" && store !== undefined && state.counts[place] && !state.hand) {
      send({action: "move", from: place, to: store});
      return;
    }
    if (pattern === "uur_to" && from >= 0 && state.counts[from] && !state.hand) {
      send({action: "move", from: from, to: place, seeds: 1});
      return;
    }
    takeOut = ONE_SEED_OUT.includes(pattern) && state.counts[place] > 0;
  }
  if (takeOut) send({action: "take", place: place});
  else if (isStore(place)) send({action: "put", place: place});
  else if (state.hand) send({action: "drop", place: place});
  else send({action: "lift", place: place});
}

// a drag from one place to another, by mouse or finger: a pit onto a store is emptied there
// (a capture); onto a pit, one seed goes (an Uur's seed, a mistake put right)
function carry(from, to) {
  if (isStore(to) && !isStore(from)) send({action: "move", from: from, to: to});
  else send({action: "move", from: from, to: to, seeds: 1});
}

function setOneSeed(on) {
  oneSeed = on;
  $("one").setAttribute("aria-pressed", on ? "true" : "false");
}

// presses and drags on the board: a touch keeps its pointer on the place it began on, so the
// place it ends on is the one under the finger when it lifts
$("board").addEventListener("pointerdown", (event) => {
  const group = event.target.closest(".place");
  if (event.button !== 0 || !group || !state) return;
  dragFrom = Number(group.dataset.place);
  dragPointer = event.pointerId;
});
document.addEventListener("pointerup", (event) => {
  if (dragFrom === null || event.pointerId !== dragPointer) return;
  const from = dragFrom;
  dragFrom = null;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const group = under && under.closest("#board .place");
  if (!group) return;
  const to = Number(group.dataset.place);
  if (to === from) press(to, event.shiftKey || event.altKey);
  else if (state.counts[from]) carry(from, to);
});
document.addEventListener("pointercancel", () => { dragFrom = null; });

function render() {
  const n = state.n;
  const upright = UPRIGHT.matches;
  if (drawnFor !== n + (upright ? "upright" : "")) { drawBoard(n); fillFaultPlaces(n); }
  for (const group of document.querySelectorAll("#board .place")) {
    const place = Number(group.dataset.place);
    const [x, y] = centre(place, n, upright);
    const count = state.counts[place];
    group.dataset.count = count;
    drawStones(group.querySelector(".stones"), count, x, y, isStore(place), upright);
    document.querySelector(`#board .count[data-place="${place}"]`).textContent = count;
    const ring = group.querySelector(".ring");
    ring.dataset.colour = state.places[place][0];
    ring.dataset.pattern = state.places[place][1];
    const glyph = document.querySelector(`#board .glyph[data-place="${place}"]`);
    const lit = state.places[place][0] !== "off";
    glyph.textContent = lit ? hello.symbols[state.places[place][1]] || "" : "";
    glyph.style.fill = lit ? light(state.places[place][0]) : "";
    const says = lit ? meaning[state.places[place][1]] : "";
    const seeds = ngettext("%(place)s, %(n)s seed", "%(place)s, %(n)s seeds", count,
                           {place: placeWords(place)});
    group.setAttribute("aria-label", says ? _("%(seeds)s: %(says)s", {seeds: seeds, says: says})
                                          : seeds);
  }
  const hand = $("handmark");
  if (state.hand && state.last_place !== null) {
    const [x, y] = centre(state.last_place, n, upright);
    // glide from place to place; appear where the hand is (not glide in from a corner)
    hand.style.transition = hand.getAttribute("visibility") === "visible" ? "" : "none";
    hand.setAttribute("transform", `translate(${x + 30},${y - 30})`);
    hand.querySelector("text").textContent = state.hand;
    hand.setAttribute("visibility", "visible");
  } else {
    hand.setAttribute("visibility", "hidden");
  }
  // the variant's name as its people write it; where the rules come from in the tooltip
  $("title").textContent = state.name;
  $("title").title = state.title;
  $("hand-count").textContent = state.hand;
  const who = (side) => state.computers.includes(side)
    ? _("%(player)s (computer)", {player: SIDES[side]}) : SIDES[side];
  const toMove = _("%(player)s to move", {player: who(state.to_move)});
  $("turn").textContent = state.match_over ? state.match_result
    : state.over ? _("game over: %(result)s", {result: state.result})
    : state.phase === "setup" ? _("after hand %(hand)s: setting up hand %(next)s",
                                  {hand: state.match_hand, next: state.match_hand + 1})
    : state.match_hand ? _("hand %(hand)s: %(turn)s", {hand: state.match_hand, turn: toMove})
    : toMove;
  // the player's colour, lightened for text on the dark page (4.5:1 at least)
  $("turn").style.color = state.over || state.to_move === null ? "#fff"
    : light(state.to_move ? "north" : "south");
  $("status").textContent = state.status;
  // the two lines before it, smaller: a capture or an Uur stays in sight a while after the
  // computer's next move (the whole list is under Events)
  $("before").replaceChildren(...state.events.slice(-3, -1).reverse().map((words) => {
    const item = document.createElement("li");
    item.textContent = words;
    return item;
  }));
  // at the end: the record with the evaluation after each move, and the moves that lost most
  $("moves").textContent = state.analysis ? state.analysis.moves : state.moves;
  $("analysis").hidden = !state.analysis;
  if (state.analysis) {
    $("mistakes").replaceChildren(...state.analysis.mistakes.map((words) => {
      const item = document.createElement("li");
      item.textContent = words;
      return item;
    }));
  }
  const scoreLine = (side) => {
    const values = {player: who(side), captured: state.captured[side],
                    score: state.scores && state.scores[side],
                    aside: state.aside && state.aside[side]};
    const line = state.scores ? _("%(player)s: %(captured)s captured, score %(score)s", values)
      : _("%(player)s: %(captured)s captured", values);
    return values.aside ? _("%(line)s (%(aside)s held aside)", {line: line, aside: values.aside})
      : line;
  };
  $("score").innerHTML = "";
  for (const side of [0, 1]) {
    const line = document.createElement("div");
    line.textContent = scoreLine(side);
    $("score").appendChild(line);
  }
  // a match: what each player held after each hand
  (state.held || []).forEach(([south, north], k) => {
    const line = document.createElement("div");
    line.className = "help";
    line.textContent = _("after hand %(hand)s: %(south)s held %(south_seeds)s, %(north)s " +
                         "%(north_seeds)s", {hand: k + 1, south: who(0), south_seeds: south,
                                             north: who(1), north_seeds: north});
    $("score").appendChild(line);
  });
  showArrangement(state.arrange);
  $("match-record").hidden = !state.record;
  $("record-text").textContent = state.record || "";
  $("skip").hidden = !state.skip_offered;
  $("one").hidden = state.way === "play";
  if (state.way === "play" && oneSeed) setOneSeed(false);
  $("set").hidden = !state.can_set;
  $("finish").hidden = !(state.sowing_for_you || (state.moving &&
                                                   state.computers.includes(state.to_move)));
  for (const radio of document.querySelectorAll("#way input")) {
    radio.checked = radio.value === state.way;
  }
  $("speed").value = state.speed;
  $("help-play").hidden = state.way !== "play" || state.phase === "setup";
  $("hand").hidden = state.way === "play";       // playing, the table's hand sows
  $("help-rehearse").hidden = state.way === "play";
  $("hint").disabled = !state.can_hint;
  const auto = state.computers.length > 0;
  $("pause").hidden = $("step").hidden = !auto;
  $("pause").firstChild.textContent = (state.paused ? _("play") : _("pause")) + " ";
  $("events").innerHTML = "";
  for (const words of state.events) {
    const item = document.createElement("li");
    item.textContent = words;
    $("events").appendChild(item);
  }
  showLesson(state.lesson);
  if (!formFilled) fillForm();
  if (howtoFor !== state.variant) showHowTo(state.variant);
}

// setting a match's next hand up: the person's row of seeds, then "place them"
let arrangingFor = null;      // the set-up the row's fields were made for
function showArrangement(plan) {
  $("arrange").hidden = !plan;
  if (!plan) { arrangingFor = null; return; }
  const key = JSON.stringify([state.match_hand, plan.who, plan.seeds, plan.copy]);
  const side = SIDES[plan.who];
  const values = {player: side, other: SIDES[1 - plan.who], n: plan.seeds, aside: plan.aside,
                  row: plan.copy && plan.copy.join(", ")};
  $("arrange-title").textContent = plan.copy ? _("%(player)s: copy %(other)s's row", values)
    : _("%(player)s: place %(n)s seeds", values);
  $("arrange-words").textContent = plan.copy
    ? (plan.aside ? _("pit for pit: %(row)s; %(aside)s stay aside", values)
                  : _("pit for pit: %(row)s", values))
    : (plan.aside ? _("in your own pits, one at least in each, as you like; the other " +
                      "%(aside)s stay aside for the hand: type them here, or move them on the " +
                      "board as its lights show", values)
                  : _("in your own pits, one at least in each, as you like: type them here, " +
                      "or move them on the board as its lights show", values));
  if (key !== arrangingFor) {
    const row = $("arrange-row");
    row.replaceChildren(...plan.row.map((count, k) => {
      const label = document.createElement("label");
      label.className = "arrange-pit";
      label.append(_("pit %(pit)s", {pit: k + 1}) + " ");
      const input = document.createElement("input");
      Object.assign(input, {type: "number", min: 1, max: plan.seeds, value: count,
                            inputMode: "numeric"});
      input.disabled = Boolean(plan.copy);
      input.addEventListener("input", () => showArrangedSum(plan));
      label.appendChild(input);
      return label;
    }));
    arrangingFor = key;
  }
  showArrangedSum(plan);
}

function arrangedRow() {
  return [...$("arrange-row").querySelectorAll("input")].map((input) => Number(input.value));
}

function showArrangedSum(plan) {
  const placed = arrangedRow().reduce((a, b) => a + b, 0);
  $("arrange-sum").textContent = _("%(placed)s of %(n)s placed", {placed: placed, n: plan.seeds});
  $("arrange-go").disabled = placed !== plan.seeds;
  $("arrange-go").textContent = plan.copy ? _("copy it") : _("place them");
}

// a lesson of the first game (simulator/ui/lessons.py): what to do, then what it showed
let shownLesson = null;
function showLesson(lesson) {
  const begun = lesson && (!shownLesson || shownLesson.number !== lesson.number);
  shownLesson = lesson;
  $("lesson").hidden = !lesson;
  $("learn").hidden = Boolean(lesson);
  if (!lesson) return;
  // a lesson begun: its words in sight (on a phone the button is far below the board)
  if (begun) $("lesson").scrollIntoView({block: "start"});
  $("lesson-title").textContent = _("Lesson %(number)s of %(of)s: %(title)s", lesson);
  $("lesson-words").textContent = lesson.words;
  $("lesson-next").hidden = !lesson.done;
  $("lesson-next").textContent = lesson.number < lesson.of ? _("next lesson") : _("play a game");
}

function light(colour) {
  const [r, g, b] = hello.palette[colour].map((c) => Math.round(c + (255 - c) * 0.55));
  return `rgb(${r},${g},${b})`;
}

// an LED at brightness lvl (0..256, a PWM duty: light in proportion) as a screen shows it: a
// screen's values are gamma-encoded (sRGB, about 2.2), so a ring at an eighth of its light
// is a value of about 39%, not 12% (which a screen shows nearly black: a relay's dim phase,
// a dim Uur, were lost against the board)
function rgb(colour, lvl) {
  const [r, g, b] = hello.palette[colour];
  const f = Math.pow(Math.min(lvl, 256) / 256, 1 / 2.2);
  return `rgb(${Math.round(r * f)},${Math.round(g * f)},${Math.round(b * f)})`;
}

// a person who asks for less motion sees every light still, at its brightest (its symbol
// and colour say what it means)
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");
const brightest = {};
function stillLevel(pattern) {
  if (!(pattern in brightest)) {
    let most = 0;
    for (let t = 0; t < 3000; t += 5) most = Math.max(most, level(pattern, t));
    brightest[pattern] = most;
  }
  return brightest[pattern];
}

// the LEDs: every ring in its colour, at the brightness its pattern has now
function glow() {
  const t = Math.floor(performance.now());
  if (hello) {
    for (const ring of document.querySelectorAll(".ring[data-pattern]")) {
      const lvl = STILL.matches ? stillLevel(ring.dataset.pattern) : level(ring.dataset.pattern, t);
      ring.style.stroke = lvl && ring.dataset.colour !== "off"
        ? rgb(ring.dataset.colour, lvl) : "#2a1c0e";
    }
  }
  requestAnimationFrame(glow);
}

// --- the new-game form, the sensor panel and the legend -------------------------------------

function variantSpec(name) { return hello.variants.find((v) => v.name === name); }

// how to play the variant on the board, a few paragraphs, some beside a small board before
// and after a move that shows what they say (simulator/ui/howto.py: a lesson's move)
function showHowTo(name) {
  $("howto-text").replaceChildren(...variantSpec(name).howto.map(([title, words, picture]) => {
    const paragraph = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = title + ". ";
    paragraph.append(strong, words);
    if (!picture) return paragraph;
    const part = document.createElement("div");
    part.append(paragraph, illustration(picture));
    return part;
  }));
  howtoFor = name;
}

// a lesson's move on two small boards: the pit lifted before, the places it changed after
function illustration(picture) {
  const figure = document.createElement("figure");
  figure.className = "illustration";
  const {n, pit, before, after, uur} = picture;
  for (const [counts, when, first] of [[before, _("before"), true], [after, _("after"), false]]) {
    const [width, height] = extent(n, false);
    const svg = el("svg", {viewBox: `0 0 ${width} ${height}`, role: "img",
                           "aria-label": _("%(when)s: South's row %(south)s, North's row " +
                                           "%(north)s, stores %(stores)s",
                                           {when: when, south: counts.slice(0, n).join(" "),
                                            north: counts.slice(n, 2 * n).join(" "),
                                            stores: counts.slice(2 * n).join(" ")})});
    for (let place = 0; place < 2 * n + 2; place++) {
      const [x, y] = centre(place, n, false);
      const marked = first ? place === pit : counts[place] !== before[place];
      const cls = "mini" + (marked ? " marked" : "");
      if (place >= 2 * n) {
        el("rect", {"class": cls, x: x - 40, y: y - 120, width: 80, height: 240, rx: 40}, svg);
      } else {
        el("circle", {"class": cls, cx: x, cy: y, r: 40}, svg);
      }
      el("text", {"class": "mini-count", x: x, y: y + 14}, svg).textContent = counts[place];
      if (!first && place < 2 * n && uur[place] !== null) {
        el("text", {"class": "mini-uur", x: x + 30, y: y - 26}, svg).textContent = "U";
      }
    }
    const caption = document.createElement("figcaption");
    caption.textContent = when;
    const side = document.createElement("div");
    side.append(svg, caption);
    figure.appendChild(side);
  }
  return figure;
}

// the variant's options in players' words: the rules in the form, the fine print in the board
// simulation part (options of a match wait until the page plays matches); each option's
// description and source in its tooltip, its default choice first
const OPTION_BOXES = {rules: "rules-options", match: "match-options",
                      advanced: "advanced-options"};

function fillOptions(values) {
  for (const id of Object.values(OPTION_BOXES)) {
    const box = $(id);
    box.replaceChildren(box.querySelector("legend"));
  }
  for (const option of variantSpec($("variant").value).options) {
    const box = OPTION_BOXES[option.group] && $(OPTION_BOXES[option.group]);
    if (!box) continue;
    const label = document.createElement("label");
    label.title = option.what;
    label.append(option.label + " ");
    let input;
    const value = values && option.name in values ? values[option.name] : option.default;
    if (option.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = value;
    } else if (option.choices && (option.kind !== "int" || option.choice_words["0"])) {
      input = document.createElement("select");
      const choices = [option.default, ...option.choices.filter((c) => c !== option.default)];
      const ints = option.kind === "int";
      for (const choice of ints ? [0, 1] : choices) {
        input.add(new Option(option.choice_words[String(choice)] || choice, choice));
      }
      input.value = Array.isArray(value) ? option.default : value;
    } else {
      input = document.createElement("input");
      input.type = option.kind === "int" ? "number" : "text";
      if (option.choices) { input.min = option.choices[0]; input.max = option.choices[1]; }
      input.value = value;
    }
    input.dataset.option = option.name;
    input.dataset.kind = option.kind;
    label.appendChild(input);
    box.appendChild(label);
  }
  for (const id of Object.values(OPTION_BOXES)) {
    $(id).hidden = $(id).children.length < 2;
  }
  showMatchChoice();
}

// a match of hands, for the variants played in hands; its options only for a match
function showMatchChoice() {
  const hands = variantSpec($("variant").value).hands;
  $("match-label").hidden = !hands;
  if (!hands) $("match").value = "game";
  $("match-options").hidden = $("match").value !== "match"
    || $("match-options").children.length < 2;
}

function fillForm() {
  const variant = $("variant");
  variant.textContent = "";
  for (const v of hello.variants) {
    variant.add(new Option(v.words, v.name));
  }
  variant.value = state.variant;
  const mode = $("mode");
  mode.textContent = "";
  const words = {people: _("two people"), computer: _("against the computer"),
                 computers: _("two computers"), replay: _("replay a record")};
  for (const m of hello.modes) mode.add(new Option(words[m] || m, m));
  mode.value = state.mode;
  $("record-label").hidden = state.mode !== "replay";
  const level = $("level");
  level.textContent = "";
  const levelWords = {beginner: _("as a beginner"), easy: _("easy"), medium: _("medium"),
                      hard: _("hard"), strongest: _("its strongest")};
  for (const l of hello.levels) level.add(new Option(levelWords[l] || l, l));
  level.value = state.level;
  $("match").value = state.match ? "match" : "game";
  showLevel();
  fillOptions(state.options);
  const kind = $("fault-kind");
  kind.textContent = "";
  for (const k of hello.fault_kinds) kind.add(new Option(hello.fault_words[k] || k, k));
  formFilled = true;
}

function fillFaultPlaces(n) {
  const select = $("fault-place");
  select.textContent = "";
  for (let place = 0; place < 2 * n + 2; place++) select.add(new Option(placeWords(place), place));
}

function fillLegend() {
  const list = $("legend");
  list.textContent = "";
  for (const [pattern, words] of hello.legend) {
    const item = document.createElement("li");
    const svg = el("svg", {width: 22, height: 22, viewBox: "0 0 22 22"});
    const colour = {flash: "error", more: "too_many", less: "too_few", broken: "fault",
                    pick: "south"}[pattern] || "south";
    el("circle", {"class": "ring legend-ring", cx: 11, cy: 11, r: 8,
                  "data-pattern": pattern, "data-colour": colour}, svg);
    const symbol = document.createElement("span");
    symbol.className = "symbol";
    symbol.textContent = hello.symbols[pattern];
    symbol.style.color = light(colour);
    item.append(svg, symbol, words);
    list.appendChild(item);
  }
}

function newGame() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const spec = variantSpec($("variant").value).options.find(
      (o) => o.name === input.dataset.option);
    const value = input.type === "checkbox" ? input.checked
      : input.type === "number" || input.dataset.kind === "int" ? Number(input.value)
      : input.value;
    if (JSON.stringify(value) !== JSON.stringify(spec.default)) options[input.dataset.option] = value;
  }
  const match = $("match").value === "match";
  for (const input of $("match-options").querySelectorAll("[data-option]")) {
    if (!match) delete options[input.dataset.option];
  }
  const message = {action: "new", variant: $("variant").value, mode: $("mode").value,
                   options: options, level: $("level").value, match: match};
  if (message.mode === "replay") message.record = $("record").value;
  send(message);
}

// --- the connection -------------------------------------------------------------------------

const BOARD_ACTIONS = ["lift", "drop", "take", "put", "move", "play"];

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    if (BOARD_ACTIONS.includes(message.action)) answerDue = performance.now() + 1500;
  }
}

function connect() {
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
                         location.host + "/ws?lang=" + window.Layli.language);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") {
      hello = message;
      meaning = Object.fromEntries(hello.legend);
      fillLegend();
    }
    else if (message.type === "state") {
      state = message;
      answerDue = 0;
      render();
      $("error").textContent = "";
      window.layli.version += 1;
    }
    else if (message.type === "error") {
      answerDue = 0;
      $("error").textContent = message.message;
      window.layli.errors.push(message.message);
    }
  };
  socket.onclose = () => {
    $("status").textContent = _("the connection to the board is lost; reconnecting...");
    setTimeout(connect, 1000);
  };
}

const BUTTONS = {takeback: "u", hint: "h", skip: "s", confirm: "c", pause: " ", step: ".",
                 finish: "f", set: "b"};
const PIT_KEYS = "1234567890-=";          // pit 1 to pit 12 of the player to move
for (const [name, key] of Object.entries(BUTTONS)) {
  $(name).addEventListener("click", () => send({action: name}));
}
$("new").addEventListener("click", newGame);
$("one").addEventListener("click", () => setOneSeed(!oneSeed));
$("learn").addEventListener("click", () => send({action: "lesson", number: 1,
                                                 variant: state.variant}));
$("lesson-again").addEventListener("click", () =>
  send({action: "lesson", number: state.lesson.number}));
$("lesson-next").addEventListener("click", () => send({action: "lesson",
  number: state.lesson.number < state.lesson.of ? state.lesson.number + 1 : 0}));
$("lesson-leave").addEventListener("click", () => send({action: "lesson", number: 0}));
for (const radio of document.querySelectorAll("#way input")) {
  radio.addEventListener("change", () => send({action: "way", way: radio.value}));
}
$("speed").addEventListener("change", () => send({action: "speed", speed: $("speed").value}));
$("variant").addEventListener("change", () => fillOptions(null));
$("match").addEventListener("change", showMatchChoice);
$("arrange-go").addEventListener("click", () => send({action: "arrange", row: arrangedRow()}));
// the computer's level, for the modes a computer plays in
function showLevel() {
  $("level-label").hidden = !["computer", "computers"].includes($("mode").value);
}
$("mode").addEventListener("change", () => {
  $("record-label").hidden = $("mode").value !== "replay";
  showLevel();
});
$("break").addEventListener("click", () => send(
  {action: "break", place: Number($("fault-place").value), kind: $("fault-kind").value}));
$("mend").addEventListener("click", () => send(
  {action: "mend", place: Number($("fault-place").value)}));
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey) return;
  if (event.key === "n") { newGame(); return; }
  const own = PIT_KEYS.indexOf(event.key) + 1;
  if (own > 0 && own <= state.n) {
    event.preventDefault();
    if (!playOwn(own)) {
      $("error").textContent = _("number keys play a pit at the start of your move, in the " +
                                 "play way");
    }
    return;
  }
  if (event.key === "o" && state.way !== "play") { setOneSeed(!oneSeed); return; }
  for (const [name, key] of Object.entries(BUTTONS)) {
    if (event.key === key) {
      event.preventDefault();
      if ((name !== "skip" || state.skip_offered) && (name !== "set" || state.can_set)) {
        send({action: name});
      }
    }
  }
});

UPRIGHT.addEventListener("change", () => { if (state) render(); });
window.addEventListener("resize", () => { if (state) sizeBoard(state.n, UPRIGHT.matches); });

// for tests and the curious: the state shown, how many states have come, the errors answered
window.layli = {send: send, get state() { return state; }, version: 0, errors: [],
                get symbols() { return hello && hello.symbols; }};
connect();
requestAnimationFrame(glow);
