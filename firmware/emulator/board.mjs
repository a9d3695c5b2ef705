// A board's parts wired to the emulated Pico, from the board's description: a shipped profile
// as JSON (`controller.hardware.profile.load(name).as_dict()`, what the Python wrapper sends),
// which says which GPIO is which:
//
//   {"name": "pico-bridge-2x12",
//    "leds": {"data_pin": "GP22", "length": 320, ...},
//    "sensors": {"kind": "load-cell", "clock_pin": "GP2", "data_pins": ["sr.0", ..., "sr.25"]},
//    "expanders": [{"name": "sr", "type": "74hc165", "chips": 4,
//                   "load_pin": "GP3", "clock_pin": "GP4", "data_pin": "GP5"}],
//    "buttons": {"new_game": "GP19", ...}, "buzzer": {"pin": "GP27"}}
//
// A data pin `GPn` puts that HX711's DOUT on GPIO n; `sr.k` on input "ABCDEFGH"[k % 8] of chip
// U(k // 8 + 1) of the 74HC165 chain named sr. Every HX711 shares the clock pin.

import { Button, Buzzer, HX711, Lcg, RATE_HIGH_NS, RATE_LOW_NS, ShiftChain, WS2812Strip, spreadPeriods } from './devices.mjs';

const GP = /^GP(\d+)$/;
const DEFAULT_SPREAD = 0.03;

// A bad description or command: the message says what was wrong, in a person's words.
export class BoardError extends Error {}

export function gpio(text, key) {
  const m = GP.exec(String(text));
  if (!m || +m[1] > 29) throw new BoardError(`${key} is ${JSON.stringify(text)}, not a Pico pin (GP0..GP29)`);
  return +m[1];
}

export function number(value, key, { min = -Infinity, max = Infinity, integer = false } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))
      || value < min || value > max) {
    const range = `${min === -Infinity ? '' : min}..${max === Infinity ? '' : max}`;
    throw new BoardError(`${key} must be ${integer ? 'an integer' : 'a number'} in ${range}, not ${JSON.stringify(value)}`);
  }
  return value;
}

export class Board {
  constructor(pico, description, { seed = 1, spread = DEFAULT_SPREAD } = {}) {
    if (!description || typeof description !== 'object') throw new BoardError('the board description must be a JSON object');
    this.pico = pico;
    this.name = description.name ?? 'board';
    const { clock, pads } = pico;
    this.hx711 = [];
    this.releases = [];     // per cell: let go of what its DOUT drives (unplug)
    this.chains = {};
    this.buttons = {};
    this.strip = null;
    this.buzzer = null;
    this.used = new Map();

    for (const e of description.expanders ?? []) {
      if (e.type !== '74hc165') continue;
      const chips = number(e.chips ?? 1, `expanders ${e.name}.chips`, { min: 1, max: 8, integer: true });
      const load = this._claim(gpio(e.load_pin, `expanders ${e.name}.load_pin`), `${e.name} SH/LD`);
      const clk = this._claim(gpio(e.clock_pin, `expanders ${e.name}.clock_pin`), `${e.name} CLK`);
      const data = this._claim(gpio(e.data_pin, `expanders ${e.name}.data_pin`), `${e.name} QH`);
      const chain = new ShiftChain(clock, chips, (level) => pads.drive(data, level, `74HC165 ${e.name} QH`));
      pads.watch(load, (level, t) => chain.shLd(level, t));
      pads.watch(clk, (level, t) => chain.clk(level, t));
      chain.shLd(pads.level(load), clock.nanos);
      // a PIO machine polling the chain may be parked while neither changes (pio.mjs)
      pico.pio.attach({ listens: [load, clk], drives: [data], state: () => chain.state(),
                        version: () => chain.changes });
      this.chains[e.name] = chain;
    }

    const sensors = description.sensors;
    if (sensors && sensors.kind === 'load-cell') {
      const sck = this._claim(gpio(sensors.clock_pin, 'sensors.clock_pin'), 'HX711 SCK');
      const pins = sensors.data_pins ?? [];
      const periods = spreadPeriods(pins.length, spread, seed);
      pins.forEach((where, i) => {
        const key = `sensors.data_pins[${i}]`;
        const cell = new HX711(clock, this._output(where, key, i), {
          period_ns: periods[i], phase_ns: periods[i], seed: seed + 1 + i,
        });
        pads.watch(sck, (level, t) => cell.sck(level, t));
        this.hx711.push(cell);
      });
    }

    if (description.leds) {
      const pin = this._claim(gpio(description.leds.data_pin, 'leds.data_pin'), 'LED data');
      const count = number(description.leds.length, 'leds.length', { min: 1, integer: true });
      this.strip = new WS2812Strip(clock, count);
      pads.watch(pin, (level, t) => this.strip.edge(level, t));
    }
    for (const [name, where] of Object.entries(description.buttons ?? {})) {
      if (where === null) continue;
      const pin = this._claim(gpio(where, `buttons.${name}`), `button ${name}`);
      this.buttons[name] = new Button(pads, pin, name);
    }
    const buzzer = description.buzzer?.pin ?? description.buzzer;
    if (buzzer !== undefined && buzzer !== null) {
      const pin = this._claim(gpio(buzzer, 'buzzer.pin'), 'buzzer');
      this.buzzer = new Buzzer(clock, pin);
      pads.watch(pin, (level, t) => this.buzzer.edge(level, t));
    }
  }

  _claim(pin, what) {
    if (this.used.has(pin)) throw new BoardError(`GP${pin} is wired to both ${this.used.get(pin)} and ${what}`);
    this.used.set(pin, what);
    return pin;
  }

  // where an HX711's DOUT goes: a GPIO's pad, or an input of a shift register chain
  _output(where, key, i) {
    const text = String(where);
    const dot = text.indexOf('.');
    if (dot > 0 && !GP.test(text)) {
      const chain = this.chains[text.slice(0, dot)];
      const k = Number(text.slice(dot + 1));
      if (!chain) throw new BoardError(`${key} is ${text}: there is no 74HC165 chain named ${text.slice(0, dot)}`);
      if (!Number.isInteger(k) || k < 0 || k >= 8 * chain.chips) {
        throw new BoardError(`${key} is ${text}: the chain has inputs 0..${8 * chain.chips - 1}`);
      }
      this.releases[i] = () => chain.setInput(k, 0);    // its pull-down resistor
      return (level) => chain.setInput(k, level);
    }
    const pin = this._claim(gpio(text, key), `HX711 ${i} DOUT`);
    this.releases[i] = () => this.pico.pads.drive(pin, null);     // the pad's pull decides
    return (level) => this.pico.pads.drive(pin, level, `HX711 ${i} DOUT`);
  }

  _cell(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.hx711.length) {
      throw new BoardError(`there is no cell ${JSON.stringify(index)}: the board has cells 0..${this.hx711.length - 1}`);
    }
    return this.hx711[index];
  }

  _button(name) {
    const button = this.buttons[name];
    if (!button) {
      throw new BoardError(`there is no button ${JSON.stringify(name)} (the board has ${Object.keys(this.buttons).join(', ') || 'none'})`);
    }
    return button;
  }

  // --------------------------------------------------------------- what the control channel does
  setCells(values) {
    if (!Array.isArray(values) || values.length !== this.hx711.length) {
      throw new BoardError(`cells takes a list of ${this.hx711.length} values, one per cell`);
    }
    values.forEach((v, i) => { this.hx711[i].value = number(v, `values[${i}]`, { integer: true }); });
  }

  setCell(index, value, valueB) {
    const cell = this._cell(index);
    if (value !== undefined) cell.value = number(value, 'value', { integer: true });
    if (valueB !== undefined) cell.value_b = number(valueB, 'value_b', { integer: true });
  }

  // HX711 timing: for one cell (index) or all (index null). spread and seed draw new periods
  // nominal * (1 + u), u uniform in +-spread; rate "low" or "high" sets the nominal period.
  configure(index, { period_ns, phase_ns, update_ns, jitter_ns, rate, spread, seed } = {}) {
    const cells = index === null || index === undefined ? this.hx711 : [this._cell(index)];
    let nominal = period_ns;
    if (rate !== undefined) {
      if (rate !== 'low' && rate !== 'high') throw new BoardError(`rate is "low" (10 SPS) or "high" (80 SPS), not ${JSON.stringify(rate)}`);
      if (period_ns !== undefined) throw new BoardError('give rate or period_ns, not both');
      nominal = rate === 'low' ? RATE_LOW_NS : RATE_HIGH_NS;
    }
    if (nominal !== undefined) number(nominal, 'period_ns', { min: 1000 });
    if (phase_ns !== undefined) number(phase_ns, 'phase_ns', { min: 0 });
    if (update_ns !== undefined) number(update_ns, 'update_ns', { min: 0 });
    if (jitter_ns !== undefined) number(jitter_ns, 'jitter_ns', { min: 0 });
    let periods = null;
    if (spread !== undefined || seed !== undefined) {
      const width = spread === undefined ? DEFAULT_SPREAD : number(spread, 'spread', { min: 0, max: 0.5 });
      periods = spreadPeriods(cells.length, width, number(seed ?? 1, 'seed', { integer: true }), nominal ?? RATE_HIGH_NS);
    }
    cells.forEach((cell, i) => {
      const which = cells.length === 1 ? index : i;
      if (seed !== undefined) cell.rng = new Lcg(seed + 1 + which);
      cell.configure({ period_ns: periods ? periods[i] : nominal, phase_ns, update_ns, jitter_ns });
    });
  }

  // a cell's connector out (its DOUT left to the pull-down, the chip stopped), or in again
  unplug(index) {
    const cell = this._cell(index);
    if (!cell.plugged) throw new BoardError(`cell ${index} is unplugged already`);
    cell.unplug();
    this.releases[index]();
  }

  plug(index) {
    const cell = this._cell(index);
    if (cell.plugged) throw new BoardError(`cell ${index} is plugged in already`);
    cell.plug(this.pico.clock.nanos);
  }

  press(name) { this._button(name).press(); }
  release(name) { this._button(name).release(); }

  stripState() {
    if (!this.strip) throw new BoardError('the board has no LED strip');
    return this.strip.state();
  }

  takeTones() {
    if (!this.buzzer) throw new BoardError('the board has no buzzer');
    return this.buzzer.takeTones();
  }

  resetStats() {
    for (const cell of this.hx711) cell.resetStats();
    for (const chain of Object.values(this.chains)) chain.errors.clear();
    if (this.strip) this.strip.errors.clear();
  }

  stats() {
    const conflicts = {};
    for (const pin of this.pico.pads.pins) if (pin.conflicts) conflicts[`GP${pin.index}`] = pin.conflicts;
    return {
      board: this.name,
      hx711: this.hx711.map((cell) => cell.stats()),
      chains: Object.fromEntries(Object.entries(this.chains).map(([k, c]) => [k, c.stats()])),
      strip: this.strip ? { frames: this.strip.frames, errors: this.strip.errors.list, short_resets: this.strip.shortResets, spoilt: this.strip.spoilt } : null,
      buttons: Object.fromEntries(Object.entries(this.buttons).map(([k, b]) => [k, b.stats()])),
      buzzer: this.buzzer ? this.buzzer.stats() : null,
      conflicts,
    };
  }
}
