// The Pico's GPIO pads as the outside world sees them: the level on each wire, who drives it,
// and the path from the pad back into the chip through the input synchroniser.
//
// rp2040js keeps an input level per GPIO that only the embedder sets (`setInputValue`): a pin
// with its pull-up on reads 0 until someone says otherwise, a pin the CPU drives reads 0 too,
// and a new input level reaches SIO and PIO in the same instant. `Pads` puts the physics in:
//
// - the level of a wire: the Pico's own output when its output is enabled (a device driving
//   the same wire is counted as a conflict); else what a device drives (`drive`); else the
//   pad's pull-up or pull-down; with both or neither (bus keeper, floating) it keeps its level;
// - that level reaches the chip's inputs (SIO and PIO alike) 2 clk_sys cycles later, the 2-flop
//   synchroniser on every GPIO input (RP2040 datasheet 2.19.4 and PIO's INPUT_SYNC_BYPASS,
//   3.7); a pin whose bit is set in either PIO's INPUT_SYNC_BYPASS goes straight through (the
//   bypass is per pin here, shared by SIO and PIO);
// - `setInputValue` is called only when the input really changes (rp2040js raises an edge
//   interrupt status on every call, even with the level unchanged);
// - the pads come out of reset as the datasheet says (PADS_BANK0 GPIOn = 0x56: input enabled,
//   pull-down, 4 mA; rp2040js starts them at 0x36, with the input disabled).
//
// `watch(pin, fn)` calls fn(level, timeNs) whenever the wire's level changes (what a device on
// that wire sees, with no synchroniser in between); `edges(mask)` counts those changes.

import { GPIOPinState } from 'rp2040js';

const SYNC_CYCLES = 2;
const PAD_RESET = 0x56;

export class Pads {
  constructor(mcu, clock) {
    this.mcu = mcu;
    this.clock = clock;
    this.touch = (index) => {};     // set by the emulator: input `index` changed (PIO lockstep)
    this.pins = mcu.gpio.map((gpio, index) => this._pin(gpio, index));
  }

  _pin(gpio, index) {
    gpio.padValue = PAD_RESET;
    const pin = {
      gpio, index, level: 0, external: null, owner: null, conflicts: 0, watchers: [],
      queue: [], alarm: null, edges: 0,
    };
    pin.alarm = this.clock.createAlarm(() => this._apply(pin));
    gpio.addListener(() => this._update(pin));
    return pin;
  }

  // a device drives `pin` to level 0 or 1, or lets go of it (null)
  drive(index, level, owner = 'a device') {
    const pin = this.pins[index];
    pin.external = level === null ? null : level ? 1 : 0;
    pin.owner = level === null ? null : owner;
    this._update(pin);
  }

  watch(index, fn) {
    this.pins[index].watchers.push(fn);
  }

  level(index) {
    return this.pins[index].level;
  }

  // the level changes so far on the pins of a bit mask, added up
  edges(mask) {
    let sum = 0;
    for (let i = 0; mask; i++, mask >>>= 1) if (mask & 1) sum += this.pins[i].edges;
    return sum;
  }

  _update(pin) {
    const { gpio } = pin;
    let level;
    if (gpio.outputEnable) {
      level = gpio.outputValue ? 1 : 0;
      if (pin.external !== null && pin.external !== level) pin.conflicts++;
    } else if (pin.external !== null) {
      level = pin.external;
    } else if (gpio.value === GPIOPinState.InputPullUp) {
      level = 1;
    } else if (gpio.value === GPIOPinState.InputPullDown) {
      level = 0;
    } else {
      level = pin.level;            // bus keeper or floating: it stays where it was
    }
    if (level === pin.level) return;
    pin.level = level;
    pin.edges++;
    const now = this.clock.nanos;
    for (const fn of pin.watchers) fn(level, now);
    const bypass = (this.mcu.pio[0].inputSyncBypass | this.mcu.pio[1].inputSyncBypass)
      & (1 << pin.index);
    if (bypass && !pin.queue.length) {
      this._set(pin, level);
      return;
    }
    pin.queue.push(now + SYNC_CYCLES * 1e9 / this.mcu.clkSys, level);
    if (!pin.alarm.scheduled) pin.alarm.schedule(pin.queue[0] - now);
  }

  _apply(pin) {
    pin.alarm.scheduled = false;
    const level = pin.queue[1];
    pin.queue.splice(0, 2);
    this._set(pin, level);
    if (pin.queue.length) pin.alarm.schedule(Math.max(0, pin.queue[0] - this.clock.nanos));
  }

  _set(pin, level) {
    if (pin.gpio.rawInputValue === !!level) return;
    pin.gpio.setInputValue(!!level);
    this.touch(pin.index);
  }
}
