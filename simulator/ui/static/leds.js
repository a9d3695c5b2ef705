// How bright an LED pattern is at time tMs, 0..256: a line-for-line port of
// controller/guide/pixels.py level(), so the page glows exactly as the board's NeoPixels do.
// Integer arithmetic throughout (Python's // on non-negative numbers is Math.floor).
"use strict";

function level(pattern, tMs) {
  const div = (a, b) => Math.floor(a / b);
  tMs = Math.floor(tMs);
  if (pattern === "dark") return 0;
  if (pattern === "steady" || (pattern === "win" && div(tMs, 250) % 2)) return 256;
  if (pattern === "uur") return 96;                       // dim and steady: an Uur is not a move
  const phase = tMs % 1000;
  if (pattern === "forced") return phase < 150 ? 96 : 256; // steady with a dip each second
  if (pattern === "drop") {                               // slow pulse between 25% and 100%
    const rise = phase < 500 ? phase : 1000 - phase;
    return 64 + div(rise * 192, 500);
  }
  if (pattern === "uur_to") {                             // a quicker, shallower pulse
    const quick = tMs % 600;
    const rise = quick < 300 ? quick : 600 - quick;
    return 128 + div(rise * 128, 300);
  }
  if (pattern === "pick") return (phase < 120 || (240 <= phase && phase < 360)) ? 256 : 32;
  if (pattern === "uur_from") return (phase % 160 < 80 && phase < 480) ? 256 : 32;
  if (pattern === "take") {                               // fast pulse
    const quick = tMs % 400;
    const rise = quick < 200 ? quick : 400 - quick;
    return 64 + div(rise * 192, 200);
  }
  if (pattern === "flash") return div(tMs, 125) % 2 === 0 ? 256 : 0;
  if (pattern === "more") return phase < 500 ? 256 : 0;
  if (pattern === "less") return phase % 333 < 60 ? 256 : 0;
  if (pattern === "broken") return div(tMs, 1000) % 2 === 0 ? 256 : 0;
  if (pattern === "pass") return 48;
  if (pattern === "win") return 128;
  if (pattern === "wait") {                               // a slow, dim breath over 3 s
    const slow = tMs % 3000;
    const rise = slow < 1500 ? slow : 3000 - slow;
    return 16 + div(rise * 96, 1500);
  }
  return 0;
}
