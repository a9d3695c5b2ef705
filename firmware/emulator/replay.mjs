#!/usr/bin/env node
// The device models alone, on rp2040js' clock with no Pico: an edge script in, what the part
// did out. For the cross-check against the Python models (simulator/parts/): both are driven
// by the same script and must agree.
//
//   node firmware/emulator/replay.mjs < script.json
//
// The script (times in ns, in order):
//   {"part": "hx711", "options": {"period_ns": 10702000, "phase_ns": 3000000, "value": 81234},
//    "events": [{"t": 3100000, "sample": true}, {"t": 3100000, "sck": 1}, {"t": 3101000, "sck": 0},
//               {"t": 4000000, "set": {"value": -5}}, ...]}
//   {"part": "hc165", "options": {"chips": 4},
//    "events": [{"t": 0, "input": [7, 1]}, {"t": 100, "load": 0}, {"t": 200, "load": 1},
//               {"t": 300, "sample": true}, {"t": 400, "clk": 1}, {"t": 500, "clk": 0}, ...]}
//   {"part": "ws2812", "options": {"count": 8}, "events": [{"t": 0, "din": 1}, {"t": 400, "din": 0}, ...]}
// Out: {"samples": [[t, level], ...] (DOUT or QH at each sample), "state": the part's stats}.
// A sample sees the level after every event at an earlier or equal time (the 74HC165's QH
// changes 120 ns after its cause: sample later than that).

import fs from 'node:fs';
import { Simulator } from 'rp2040js';
import { HX711, ShiftChain, WS2812Strip } from './devices.mjs';

function replay(script) {
  const clock = new Simulator().clock;     // rp2040js' SimulationClock (not exported alone)
  const samples = [];
  let level = null;
  let part, sample, apply, state;
  const options = script.options ?? {};
  switch (script.part) {
    case 'hx711': {
      const chip = new HX711(clock, (v) => { level = v; }, options);
      chip.value = options.value ?? 0;
      chip.value_b = options.value_b ?? 0;
      part = chip;
      sample = () => level;
      apply = (e) => {
        if (e.sck !== undefined) chip.sck(e.sck, clock.nanos);
        if (e.set) Object.assign(chip, e.set);
      };
      state = () => chip.stats();
      break;
    }
    case 'hc165': {
      const chain = new ShiftChain(clock, options.chips ?? 1, (v) => { level = v; });
      part = chain;
      sample = () => level;
      apply = (e) => {
        if (e.input) chain.setInput(e.input[0], e.input[1]);
        if (e.load !== undefined) chain.shLd(e.load, clock.nanos);
        if (e.clk !== undefined) chain.clk(e.clk, clock.nanos);
      };
      state = () => ({ ...chain.stats(), flip_flops: Array.from(chain.q) });
      break;
    }
    case 'ws2812': {
      const strip = new WS2812Strip(clock, options.count ?? 1);
      part = strip;
      sample = () => strip.level;
      apply = (e) => { if (e.din !== undefined) strip.edge(e.din, clock.nanos); };
      state = () => strip.state();
      break;
    }
    default:
      throw new Error(`part is hx711, hc165 or ws2812, not ${JSON.stringify(script.part)}`);
  }
  let last = 0;
  for (const e of script.events ?? []) {
    if (!(e.t >= last)) throw new Error(`events must come in time order: ${JSON.stringify(e)} after t=${last}`);
    clock.tick(e.t - clock.nanos);          // the part's own alarms up to t fire first
    last = e.t;
    apply(e);
    if (e.sample) samples.push([e.t, sample()]);
  }
  if (script.until !== undefined) clock.tick(script.until - clock.nanos);
  return { part: script.part, samples, state: state(), nanos: clock.nanos };
}

try {
  process.stdout.write(JSON.stringify(replay(JSON.parse(fs.readFileSync(0, 'utf8')))) + '\n');
} catch (error) {
  process.stderr.write(`replay: ${error.message}\n`);
  process.exit(2);
}
