// The board's parts as datasheet models on the emulated Pico's wires: one spec with two
// implementations, these and the Python part models (simulator/parts/), which a cross-check
// test drives with the same edges. Times are
// rp2040js clock nanoseconds; levels 0/1. Each model is driven by edges on the wires it
// listens to (`Pads.watch`) and by its own clock alarms, and drives its outputs through a
// function it is given (a GPIO's pad, or a shift register's input).
//
// - HX711: Avia Semiconductor HX711 datasheet (PD_SCK/DOUT timing, 25..27 pulses choose the
//   next gain, SCK high > 60 us powers down); conversion period 10.702 ms at RATE high and
//   85.635 ms at RATE low, and the 75 us "no-read" update time, measured by olkal
//   (github.com/olkal/HX711_ADC issue 81).
// - 74HC165: TI SN74HC165 datasheet (SCLS116): parallel load while SH/LD is low, shift on CLK
//   rising with SH/LD high; its timing at 3.3 V as simulator/parts/hc165.py works it out (the
//   2 V and 4.5 V columns at -40..85 C, interpolated): CLK high or low and SH/LD low >= 59 ns,
//   SH/LD high >= 74 ns before CLK rises, QH 120 ns after a CLK rise or load (the slowest
//   chip: a read sooner gets the bit before), CLK rises >= 179 ns apart in a chain.
// - WS2812B: Worldsemi WS2812B datasheet: T0H 0.4 us, T1H 0.8 us (+-150 ns), bit period
//   1.25 us (+-600 ns), reset low >= 50 us (the V5 part wants 280 us), G R B, MSB first; a
//   frame with a bit out of its window, or not whole LEDs, is not shown (an error says why).
// - A button to ground and a piezo on a PWM pin.

export const RATE_HIGH_NS = 10_702_000;
export const RATE_LOW_NS = 85_635_000;
const UPDATE_NS = 75_000;
const HIGH_LIMIT_NS = 60_000;
const HIGH_MIN_NS = 200;
const GAIN_BY_PULSES = { 25: 128, 26: 32, 27: 64 };
const MAX_ERRORS = 200;

// The project's small generator (simulator/parts/hx711.py's _Lcg): Park and Miller's minimal
// standard, x <- 16807 x mod (2^31 - 1), with Schrage's trick. The same seed gives the JS and
// the Python models the same chips.
export class Lcg {
  constructor(seed) {
    this.state = (seed % 2147483647) || 1;
  }

  below(bound) {
    let x = this.state;
    x = 16807 * (x % 127773) - 2836 * Math.floor(x / 127773);
    if (x <= 0) x += 2147483647;
    this.state = x;
    return x % bound;
  }
}

// A board's conversion periods (ns): nominal * (1 + spread * u), u in -1..1 in steps of
// 1/10000, whole microseconds, drawn in chip order (simulator/parts/hx711.py, spread_periods).
export function spreadPeriods(count, spread = 0.03, seed = 1, nominalNs = RATE_HIGH_NS) {
  const rng = new Lcg(seed);
  const steps = 10000;
  const periods = [];
  for (let i = 0; i < count; i++) {
    const u = (rng.below(2 * steps + 1) - steps) / steps;
    periods.push(1000 * Math.floor((nominalNs / 1000) * (1 + spread * u) + 0.5));
  }
  return periods;
}

// What a part saw go wrong: the sentences, and when (ns) each happened.
class ErrorLog {
  constructor(clock) { this.clock = clock; this.list = []; this.times = []; this.dropped = 0; }
  add(text) {
    if (this.list.length < MAX_ERRORS) {
      this.list.push(text);
      this.times.push(this.clock.nanos);
    } else {
      this.dropped++;
    }
  }
  clear() { this.list = []; this.times = []; this.dropped = 0; }
}

function saturate24(value) {
  const v = Math.max(-0x800000, Math.min(0x7fffff, Math.trunc(value)));
  return v & 0xffffff;
}

// ------------------------------------------------------------------------------------ HX711
export class HX711 {
  constructor(clock, output, { period_ns = RATE_HIGH_NS, phase_ns = period_ns, update_ns = UPDATE_NS,
                               jitter_ns = 0, value = 0, value_b = 0, seed = 1 } = {}) {
    this.clock = clock;
    this.output = output;           // (level) => void: drives the DOUT wire
    this.rng = new Lcg(seed);       // the jitter's draws
    this.period_ns = period_ns;
    this.phase_ns = phase_ns;
    this.update_ns = update_ns;
    this.jitter_ns = jitter_ns;
    this.value = value;
    this.value_b = value_b;
    this.sckHigh = false;
    this.highSince = 0;
    this.poweredAtRise = true;
    this.plugged = true;            // false: its connector is out (no DOUT, PD_SCK or power)
    this.dout = null;
    this.conversion = clock.createAlarm(() => this._convert());
    this.updateEnd = clock.createAlarm(() => { this.updateEnd.scheduled = false; this._refresh(); });
    this.highLimit = clock.createAlarm(() => this._highTooLong());
    this.resetStats();
    this._powerUp(clock.nanos, this.phase_ns);
  }

  resetStats() {
    this.conversions = 0;
    this.reads = 0;
    this.overwritten = 0;
    this.corrupted = 0;
    this.errors = new ErrorLog(this.clock);
    this.corruptedTimes = [];       // when (ns), the first MAX_ERRORS of each: to tell a
    this.overwrittenTimes = [];     // reader's warm-up from its steady state
  }

  // power-up (at attach, or at the falling edge after a power-down): conversions restart
  _powerUp(t, firstAfter) {
    this.powered = true;
    this.pulses = 0;
    this.word = 0;
    this.ready = false;
    this.gain = 128;
    this.updatingUntil = -Infinity;
    this.origin = t;
    this.k = 0;
    this._schedule(firstAfter);
    this._refresh();
  }

  // new timing from the control channel: conversions restart from now, phase first
  configure({ period_ns, phase_ns, update_ns, jitter_ns }) {
    if (period_ns !== undefined) this.period_ns = period_ns;
    if (update_ns !== undefined) this.update_ns = update_ns;
    if (jitter_ns !== undefined) this.jitter_ns = jitter_ns;
    if (phase_ns !== undefined) this.phase_ns = phase_ns;
    if (period_ns !== undefined || phase_ns !== undefined) {
      this.origin = this.clock.nanos;
      this.k = 0;
      if (this.powered) this._schedule(this.phase_ns);
    }
  }

  // conversion 0 ends at origin + first; each later one a period (+ a uniform draw within
  // +-jitter, whole ns) after the one before: the oscillator's wander adds up from conversion to
  // conversion, as simulator/parts/hx711.py has it (olkal measured each conversion's length at
  // 10,702 us +-20)
  _schedule(first = this.phase_ns) {
    this.first = first;
    const j = Math.floor(this.jitter_ns);
    const jitter = j ? this.rng.below(2 * j + 1) - j : 0;
    const at = this.k === 0 ? this.origin + first : this.lastEnd + this.period_ns + jitter;
    this.nextEnd = at;
    this.conversion.schedule(Math.max(0, at - this.clock.nanos));
  }

  level(t = this.clock.nanos) {
    if (!this.powered) return 1;
    if (t < this.updatingUntil) return 1;
    if (this.pulses >= 1 && this.pulses <= 24) return (this.word >> (24 - this.pulses)) & 1;
    if (this.pulses >= 25) return 1;
    return this.ready ? 0 : 1;
  }

  _refresh() {
    if (!this.plugged) return;
    const level = this.level();
    if (level !== this.dout) {
      this.dout = level;
      this.output(level);
    }
  }

  _convert() {
    this.conversion.scheduled = false;
    if (!this.powered) return;
    const t = this.clock.nanos;
    this.lastEnd = this.nextEnd;
    this.conversions++;
    if (this.pulses >= 1 && this.pulses <= 24 && !this.broken) {     // once a read
      this.corrupted++;
      if (this.corruptedTimes.length < MAX_ERRORS) this.corruptedTimes.push(t);
      this.broken = true;
    }
    if (this.ready) {
      this.overwritten++;
      if (this.overwrittenTimes.length < MAX_ERRORS) this.overwrittenTimes.push(t);
    }
    if (this.pulses >= 25) {              // a finished read closes: its pulses choose the
      this.gain = GAIN_BY_PULSES[this.pulses] ?? this.gain;  // input and gain from this
      this.pulses = 0;                    // conversion on (as simulator/parts/hx711.py)
    }
    const gain = this.gain;
    const raw = gain === 32 ? this.value_b : gain === 64 ? Math.floor(this.value / 2) : this.value;
    this.word = saturate24(raw);
    this.updatingUntil = t + this.update_ns;
    this.ready = this.pulses === 0;
    this.updateEnd.schedule(this.update_ns);
    this.k++;
    this._schedule(this.first);
    this._refresh();
  }

  // the connector comes out: the chip stops (what its DOUT drove is the board's to release)
  unplug() {
    this.plugged = false;
    this.powered = false;
    this.conversion.cancel();
    this.updateEnd.cancel();
    this.highLimit.cancel();
    this.sckHigh = false;
    this.dout = null;
  }

  // ... and goes in again at `t`: the chip powers up afresh, its first conversion a period on
  plug(t) {
    this.plugged = true;
    this._powerUp(t, this.period_ns);
  }

  sck(level, t) {
    if (!this.plugged) return;
    if (level && !this.sckHigh) this._rise(t);
    else if (!level && this.sckHigh) this._fall(t);
  }

  _rise(t) {
    this.sckHigh = true;
    this.highSince = t;
    this.poweredAtRise = this.powered;
    this.highLimit.schedule(HIGH_LIMIT_NS + 1);
    if (!this.powered) return;
    if (this.pulses === 0 && (!this.ready || t < this.updatingUntil)) {
      this.errors.add('SCK pulsed with no conversion ready');
      return;
    }
    this.pulses++;
    if (this.pulses === 1) {
      this.ready = false;
      this.broken = false;
    }
    if (this.pulses === 24) this.reads++;
    if (this.pulses === 28) this.errors.add('more than 27 SCK pulses in one read');
    this._refresh();
  }

  // an observation while SCK is still high: past 60 us the chip is powered down
  _highTooLong() {
    this.highLimit.scheduled = false;
    if (this.sckHigh && this.powered) {
      this.powered = false;
      this.conversion.cancel();
      this._refresh();
    }
  }

  _fall(t) {
    this.sckHigh = false;
    this.highLimit.cancel();
    const high = t - this.highSince;
    if (high < HIGH_MIN_NS) this.errors.add(`SCK high for ${Math.round(high)} ns: under 0.2 us`);
    if (high > HIGH_LIMIT_NS) {
      if (this.poweredAtRise) this.errors.add(`SCK high for ${Math.round(high / 1000)} us: powered down`);
      this.powered = false;
    }
    if (!this.powered) this._powerUp(t, this.period_ns);
  }

  stats() {
    return {
      conversions: this.conversions, reads: this.reads, overwritten: this.overwritten,
      corrupted: this.corrupted, corrupted_times_ns: this.corruptedTimes,
      overwritten_times_ns: this.overwrittenTimes,
      errors: this.errors.list, error_times_ns: this.errors.times,
      errors_dropped: this.errors.dropped, pulses: this.pulses, plugged: this.plugged,
      value: this.value, value_b: this.value_b, gain: this.gain, powered: this.powered,
      period_ns: this.period_ns, phase_ns: this.phase_ns, jitter_ns: this.jitter_ns,
      dout: this.dout,
    };
  }
}

// ------------------------------------------------------------------------- 74HC165 chain
const HC165_TW_NS = 59;         // CLK high or low, SH/LD low (tw)
const HC165_TREC_NS = 74;       // SH/LD high before CLK rises
const HC165_DELAY_NS = 120;     // QH valid this long after a CLK rise or a load (tpd, at most)
const HC165_PERIOD_NS = 179;    // CLK rise to rise in a chain: tpd + SER's set-up (59)

export class ShiftChain {
  constructor(clock, chips, output) {
    this.clock = clock;
    this.chips = chips;
    this.output = output;       // (level) => void: U1's QH wire
    this.inputs = new Uint8Array(8 * chips);    // chip c input A..H at 8c + 0..7 (ties: low)
    this.q = new Uint8Array(8 * chips);         // flip-flops QA..QH likewise
    this.load = 0;              // SH/LD level
    this.clkLevel = 0;
    this.loadAt = 0;            // when SH/LD last changed
    this.clkAt = 0;
    this.riseAt = null;         // the last CLK rise that shifted
    this.errors = new ErrorLog(clock);
    this.shown = null;
    this.pending = [];
    this.alarm = clock.createAlarm(() => this._show());
    this.changes = 0;           // counts every change of state (the PIO lockstep's version)
    this._changed();
  }

  get qh() { return this.q[7]; }

  // everything that decides how the chain answers its pins, as one value; null while QH is
  // still to follow a change (for the PIO lockstep, which parks a machine polling the chain)
  state() {
    if (this.pending.length) return null;
    return `${this.inputs.join('')}/${this.q.join('')}/${this.load}${this.clkLevel}${this.shown}`;
  }

  setInput(k, level) {
    if (this.inputs[k] !== level) this.changes++;
    this.inputs[k] = level;
    if (!this.load) {
      this.q[k] = level;
      if (k === 7) this._changed();
    }
  }

  shLd(level, t) {
    if (level === this.load) return;
    if (level && t - this.loadAt < HC165_TW_NS) {
      this.errors.add(`SH/LD low for ${Math.round(t - this.loadAt)} ns: under ${HC165_TW_NS} ns`);
    }
    this.load = level;
    this.loadAt = t;
    this.changes++;
    if (!level) {
      this.q.set(this.inputs);
      this._changed();
    }
  }

  clk(level, t) {
    if (level === this.clkLevel) return;
    const width = t - this.clkAt;
    if (width < HC165_TW_NS) {
      this.errors.add(`CLK ${level ? 'low' : 'high'} for ${Math.round(width)} ns: under ${HC165_TW_NS} ns`);
    }
    this.clkLevel = level;
    this.clkAt = t;
    this.changes++;
    if (!level) return;
    if (!this.load) {
      this.errors.add('CLK rising while SH/LD is low: the load wins');
      return;
    }
    if (t - this.loadAt < HC165_TREC_NS) {
      this.errors.add(`SH/LD high ${Math.round(t - this.loadAt)} ns before a CLK rise: under ${HC165_TREC_NS} ns`);
    }
    if (this.chips > 1 && this.riseAt !== null && this.loadAt < this.riseAt
        && t - this.riseAt < HC165_PERIOD_NS) {
      this.errors.add(`CLK rose ${Math.round(t - this.riseAt)} ns after the rise before: a chained SER needs ${HC165_PERIOD_NS} ns`);
    }
    this.riseAt = t;
    // every chip at once: QH <- QG ... QB <- QA, QA <- SER = the next chip's QH (last: low)
    const q = this.q;
    for (let c = 0; c < this.chips; c++) {
      const base = 8 * c;
      for (let i = 7; i > 0; i--) q[base + i] = q[base + i - 1];
      q[base] = c + 1 < this.chips ? this.pendingSer(c + 1) : 0;
    }
    this._changed();
  }

  // chip c's QH before this edge: shifting runs from U1 up, so chip c has not shifted yet
  pendingSer(c) { return this.q[8 * c + 7]; }

  // U1's QH follows its flip-flop HC165_DELAY_NS later
  _changed() {
    this.changes++;
    const t = this.clock.nanos;
    this.pending.push(t + HC165_DELAY_NS, this.q[7]);
    if (!this.alarm.scheduled) this.alarm.schedule(HC165_DELAY_NS);
  }

  _show() {
    this.alarm.scheduled = false;
    const level = this.pending[1];
    this.pending.splice(0, 2);
    this.changes++;
    if (level !== this.shown) {
      this.shown = level;
      this.output(level);
    }
    if (this.pending.length) this.alarm.schedule(Math.max(0, this.pending[0] - this.clock.nanos));
  }

  stats() {
    return { chips: this.chips, errors: this.errors.list, errors_dropped: this.errors.dropped };
  }
}

// --------------------------------------------------------------------------- WS2812B strip
const T0H = [250, 550];         // 400 ns +-150
const T1H = [650, 950];         // 800 ns +-150
const PERIOD = [650, 1850];     // 1.25 us +-600
const RESET_NS = 50_000;
const RESET_V5_NS = 280_000;

export class WS2812Strip {
  constructor(clock, count) {
    this.clock = clock;
    this.count = count;
    this.pixels = Array.from({ length: count }, () => [0, 0, 0]);
    this.frames = 0;
    this.last = null;           // the latest frame shown
    this.errors = new ErrorLog(clock);
    this.shortResets = 0;       // resets between 50 and 280 us (a WS2812B-V5 would not latch)
    this.spoilt = 0;            // frames not shown: a bit out of its window, or not whole LEDs
    this.level = 0;
    this.inFrame = false;
    this.rise = null;
    this.fall = null;
    this.bits = [];
    this.reset = clock.createAlarm(() => this._end());
  }

  edge(level, t) {
    if (level === this.level) return;
    this.level = level;
    if (level) {
      this.reset.cancel();
      if (this.inFrame) {
        const period = t - this.rise;
        if (period < PERIOD[0] || period > PERIOD[1]) this.errors.add(`bit period ${Math.round(period)} ns`);
      } else {
        this.inFrame = true;
        this.start = t;
        this.bits = [];
        this.resetBefore = this.fall === null ? null : t - this.fall;
        if (this.resetBefore !== null && this.resetBefore < RESET_V5_NS) this.shortResets++;
      }
      this.rise = t;
      return;
    }
    if (!this.inFrame) return;
    const high = t - this.rise;
    let bit;
    if (high >= T0H[0] && high <= T0H[1]) bit = 0;
    else if (high >= T1H[0] && high <= T1H[1]) bit = 1;
    else {
      this.errors.add(`bit high ${Math.round(high)} ns`);
      bit = -1;
    }
    this.bits.push(bit);
    this.fall = t;
    this.reset.schedule(RESET_NS);
  }

  _end() {
    this.reset.scheduled = false;
    this.inFrame = false;
    const bits = this.bits;
    const leds = Math.floor(bits.length / 24);
    if (bits.includes(-1) || bits.length % 24) {         // a real strip would show garbage
      if (bits.length % 24) this.errors.add(`a frame of ${bits.length} bits is not whole LEDs`);
      this.spoilt++;
      return;
    }
    for (let i = 0; i < leds && i < this.count; i++) {
      const byte = (j) => {
        let v = 0;
        for (let b = 0; b < 8; b++) v = (v << 1) | bits[24 * i + 8 * j + b];
        return v;
      };
      this.pixels[i] = [byte(1), byte(0), byte(2)];   // G, R, B on the wire
    }
    this.frames++;
    const wire = this.fall - this.start;
    this.last = {
      index: this.frames, leds, bits: bits.length, start_ns: this.start, wire_ns: wire,
      ns_per_led: leds ? wire / leds : null, reset_before_ns: this.resetBefore,
      beyond_strip: Math.max(0, leds - this.count),
    };
  }

  state() {
    return {
      frames: this.frames, pixels: this.pixels, frame: this.last, errors: this.errors.list,
      errors_dropped: this.errors.dropped, short_resets: this.shortResets, spoilt: this.spoilt,
    };
  }
}

// ------------------------------------------------------------------ buttons, buzzer, probes
export class Button {
  constructor(pads, pin, name) {
    this.pads = pads;
    this.pin = pin;
    this.name = name;
    this.pressed = false;
    this.presses = 0;
  }

  press() {
    if (!this.pressed) this.presses++;
    this.pressed = true;
    this.pads.drive(this.pin, 0, `button ${this.name}`);    // contact to ground
  }

  release() {
    this.pressed = false;
    this.pads.drive(this.pin, null);                        // the pull-up takes it back
  }

  stats() { return { pin: this.pin, pressed: this.pressed, presses: this.presses }; }
}

// A passive piezo: its tone is the square wave on its pin (frequency and duty of the last
// whole period; silent once no edge came for two periods or 50 ms). It also keeps what a
// person would hear, tone by tone: a run of periods within 3% of the first is one tone, heard
// from its first rising edge to its last ({hz, start_ms, ms}); `takeTones` hands them over.
const TONE_SPREAD = 0.03;
const TONES_KEPT = 1000;
export class Buzzer {
  constructor(clock, pin) {
    this.clock = clock;
    this.pin = pin;
    this.level = 0;
    this.rises = [];
    this.lastFall = null;
    this.high = null;
    this.edges = 0;
    this.tone = null;       // the tone sounding: {start, end, period, periods} in ns
    this.tones = [];
    this.tonesDropped = 0;
  }

  edge(level, t) {
    if (level === this.level) return;
    this.level = level;
    this.edges++;
    if (level) {
      const last = this.rises[this.rises.length - 1];
      if (last !== undefined) this._period(last, t);
      this.rises.push(t);
      if (this.rises.length > 2) this.rises.shift();
    } else if (this.rises.length) {
      this.high = t - this.rises[this.rises.length - 1];
    }
  }

  _period(from, to) {
    const period = to - from;
    const tone = this.tone;
    if (tone && to - tone.end <= 2 * tone.period
        && Math.abs(period - tone.period) <= TONE_SPREAD * tone.period) {
      tone.end = to;
      tone.periods++;
      return;
    }
    this._endTone();
    this.tone = { start: from, end: to, period, periods: 1 };
  }

  _endTone() {
    const tone = this.tone;
    this.tone = null;
    if (!tone || tone.periods < 3) return;       // a stray edge or two is no tone
    if (this.tones.length >= TONES_KEPT) { this.tonesDropped++; return; }
    this.tones.push({ hz: 1e9 / tone.period, start_ms: tone.start / 1e6,
                      ms: (tone.end - tone.start) / 1e6 });
  }

  // The tones heard since the last call, each once it has ended.
  takeTones() {
    const tone = this.tone;
    if (tone && this.clock.nanos - tone.end > Math.max(2 * tone.period, 5e6)) this._endTone();
    const out = { tones: this.tones, dropped: this.tonesDropped };
    this.tones = [];
    this.tonesDropped = 0;
    return out;
  }

  stats() {
    const now = this.clock.nanos;
    const [a, b] = this.rises;
    if (b === undefined) return { pin: this.pin, hz: 0, duty: this.level, edges: this.edges };
    const period = b - a;
    const last = Math.max(b, b + (this.high ?? 0));
    if (now - last > Math.max(2 * period, 50e6)) return { pin: this.pin, hz: 0, duty: this.level, edges: this.edges };
    return { pin: this.pin, hz: 1e9 / period, duty: this.high === null ? null : Math.min(1, this.high / period), edges: this.edges };
  }
}

// Every edge on a wire, for tests: [time_ns, level] pairs.
export class Probe {
  constructor(pin, limit = 100_000) {
    this.pin = pin;
    this.limit = limit;
    this.edges = [];
    this.dropped = 0;
  }

  edge(level, t) {
    if (this.edges.length < this.limit) this.edges.push([t, level]); else this.dropped++;
  }

  take() {
    const out = { pin: this.pin, edges: this.edges, dropped: this.dropped };
    this.edges = [];
    this.dropped = 0;
    return out;
  }
}
