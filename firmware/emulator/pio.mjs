// The RP2040's PIO state machines in step with clk_sys, for rp2040js 1.4.1.
//
// rp2040js runs its PIO from `setTimeout(run, 0)`, 1000 instructions a JavaScript tick, however
// much emulated time has passed: a PIO program's pins have no relation to the emulated clock.
// It also ignores the clock dividers (SMn_CLKDIV), the delay cycles of an instruction (`[n]`),
// FIFO joining (SHIFTCTRL.FJOIN_RX / FJOIN_TX) and it lets a stalled WAIT complete and the next
// instruction run in one step. `PioLockstep` takes the state machines over and steps them from
// the emulator's loop (pico.mjs), keeping rp2040js' instruction decoder:
//
// - every enabled state machine runs one instruction cycle per CLKDIV sys cycles: CLKDIV is
//   16.8 fixed point (INT 0 means 65536); with a fraction the cycles come int or int+1 sys
//   cycles apart, averaging INT + FRAC/256 exactly (RP2040 datasheet 3.5.5, "Clock Dividers");
// - an instruction's delay `[n]` keeps the machine busy for n more cycles (3.4.1.2); a WAIT or
//   a FIFO stall holds the machine until its condition holds at one of its own cycles, then the
//   delay runs (3.4.1.2: "the delay cycles ... are not executed until the stall clears"); the
//   next instruction runs the cycle after;
// - FJOIN_RX makes one 8-deep RX FIFO (and no TX FIFO), FJOIN_TX the reverse; changing either
//   empties both (3.5.4);
// - a machine stalled on a WAIT, a FIFO or an IRQ is "parked": it is not polled again until
//   something it could be waiting for changes (a GPIO input, a PIO register write or an RX FIFO
//   read by the CPU or DMA, an IRQ instruction). Parked machines cost nothing, and when every
//   enabled machine is parked the emulator may skip idle time to the next clock alarm;
// - a machine that spins in a loop without side effects (a program polling its input pins:
//   only JMP, MOV, IN, SET or OUT to scratch registers, no pins, FIFOs, IRQs or side-set)
//   and comes round to the same state twice with nothing changed is parked too, with a trace
//   of one turn of its loop: when something changes it is put back exactly where the loop
//   would have been by then (same instruction, same registers, same cycle), and runs on.
//
// Used by pico.mjs: `advance(cycle)` runs every machine cycle up to and including sys cycle
// `cycle`, ticking the clock to each so that GPIO listeners see exact times.

const SHIFTCTRL_FJOIN_TX = 1 << 30;
const SHIFTCTRL_FJOIN_RX = 1 << 31;
const CTRL = 0x000;
const SHIFTCTRL_OFFSETS = [0x0d0, 0x0e8, 0x100, 0x118];
const CLKDIV_OFFSETS = [0x0c8, 0x0e0, 0x0f8, 0x110];
const RXF = [0x020, 0x024, 0x028, 0x02c];
const OP_IRQ = 0b110;
const WAIT_IRQ = 4;         // rp2040js WaitType.IRQ

class Machine {
  constructor(pio, sm) {
    this.pio = pio;
    this.sm = sm;
    this.on = false;
    this.parked = false;
    this.at = 0;            // its next cycle: sys cycle floor(at / 256)
    this.count = 0;         // its cycles so far
    this.instructions = 0;  // instructions run
    this.skipped = 0;       // cycles of a spinning loop not run one by one
    this.loop = null;       // a loop being watched: {pc, state, epoch, count, trace}
    this.spinning = null;   // parked in a loop: {at, count, period, trace, div}
  }

  get div256() {
    const { clockDivInt, clockDivFrac } = this.sm;
    return (clockDivInt || 65536) * 256 + clockDivFrac;
  }

  // the first of its cycles at or after sys cycle `cycle`, keeping its divider's phase
  align(cycle) {
    const goal = cycle * 256;
    if (this.at < goal) {
      const d = this.div256;
      this.at += Math.ceil((goal - this.at) / d) * d;
    }
  }
}

export class PioLockstep {
  // shortcuts: false polls every stalled or spinning machine at every one of its cycles (the
  // plain lockstep, to check that parking changes nothing but speed)
  constructor(mcu, clock, { shortcuts = true } = {}) {
    this.shortcuts = shortcuts;
    this.mcu = mcu;
    this.clock = clock;
    this.cycle = 0;             // the sys cycle now (set by the emulator loop)
    this.machines = [];
    this.running = [];          // enabled machines
    this.next = Infinity;       // the next sys cycle at which an unparked machine runs
    this.dirty = false;         // something a parked machine may wait for has changed
    this.epoch = 0;             // counts those changes
    this.from = 0;              // ... seen from this sys cycle on
    this.stepping = false;      // inside _step: a change is seen from the next cycle
    this.spun = false;          // the machine just run has been found spinning
    this.current = null;        // the rp2040js StateMachine inside its own cycle
    this.onCycle = null;        // the emulator's clock hook: (cycle) => void, before each cycle
    this.clockCycle = () => this.cycle;     // the sys cycle the clock is at (set by the emulator)
    this.nanosOf = (cycle) => cycle * 8;    // the clock time of a sys cycle (set by the emulator)
    for (const pio of mcu.pio) this._adopt(pio);
  }

  _adopt(pio) {
    const lock = this;
    pio.run = () => {};         // no setTimeout loop: advance() runs the machines
    const machines = pio.machines.map((sm) => new Machine(pio, sm));
    this.machines.push(...machines);
    for (const sm of pio.machines) {
      // a WAIT resolves only in the machine's own cycle (rp2040js also resolves it at once
      // from GPIO input changes, FIFO accesses and other machines' IRQs)
      const checkWait = sm.checkWait;
      sm.checkWait = function () {
        if (lock.current === this) checkWait.call(this);
      };
    }
    const write = pio.writeUint32.bind(pio);
    pio.writeUint32 = (offset, value) => {
      const shift = SHIFTCTRL_OFFSETS.indexOf(offset);
      if (shift >= 0) {
        const sm = pio.machines[shift];
        const joins = (value ^ sm.shiftCtrl) & (SHIFTCTRL_FJOIN_RX | SHIFTCTRL_FJOIN_TX);
        write(offset, value);
        if (joins) this._join(sm, value);
      } else {
        write(offset, value);
      }
      if (offset === CTRL) this._control(pio, machines, value);
      else if (CLKDIV_OFFSETS.includes(offset)) this._rescheduled();
      this.touch();
    };
    const read = pio.readUint32.bind(pio);
    pio.readUint32 = (offset) => {
      if (RXF.includes(offset)) this.touch();
      else if (this.running.some((m) => m.spinning)) {   // SMn_ADDR, X via EXEC...: be exact
        this.touch();
        this._unpark();
      }
      return read(offset);
    };
  }

  // SHIFTCTRL.FJOIN: the joined FIFO is 8 deep, the other has none; both are emptied
  _join(sm, value) {
    const FIFO = sm.rxFIFO.constructor;
    const rx = value & SHIFTCTRL_FJOIN_RX ? 8 : value & SHIFTCTRL_FJOIN_TX ? 0 : 4;
    const tx = value & SHIFTCTRL_FJOIN_TX ? 8 : value & SHIFTCTRL_FJOIN_RX ? 0 : 4;
    sm.rxFIFO = new FIFO(rx);
    sm.txFIFO = new FIFO(tx);
    sm.updateDMARx();
    sm.updateDMATx();
    sm.pio.checkInterrupts();
  }

  _control(pio, machines, value) {
    for (let i = 0; i < 4; i++) {
      const m = machines[i];
      const on = !!(value & (1 << i));
      const restart = !!(value & (1 << (4 + i))) || !!(value & (1 << (8 + i)));
      if (on && (!m.on || restart)) {
        m.at = (this.cycle + 1) * 256;      // runs from the next sys cycle, divider phase 0
        m.parked = false;
      }
      m.on = on;
    }
    this.running = this.machines.filter((m) => m.on);
    this._rescheduled();
  }

  // something a parked machine may be waiting for has changed
  touch() {
    const from = this.stepping ? this.cycle + 1 : Math.max(this.cycle, this.clockCycle());
    if (!this.dirty || from < this.from) this.from = from;
    this.dirty = true;
    this.epoch++;
  }

  _rescheduled() {
    let next = Infinity;
    for (const m of this.running) {
      if (!m.parked) {
        const c = Math.floor(m.at / 256);
        if (c < next) next = c;
      }
    }
    this.next = next;
  }

  _unpark() {
    this.dirty = false;
    for (const m of this.running) {
      m.loop = null;
      if (!m.parked) continue;
      m.parked = false;
      if (m.spinning) this._resume(m);
      else m.align(this.from);
    }
    this._rescheduled();
  }

  // put a spinning machine where its loop has got to by its first cycle from this.from on
  _resume(m) {
    const { at, count, period, trace, div } = m.spinning;
    m.spinning = null;
    const goal = this.from * 256;
    const now = at < goal ? at + Math.ceil((goal - at) / div) * div : at;
    const elapsed = Math.round((now - at) / div);
    const phase = elapsed % period;
    let entry = trace.find((e) => e.offset >= phase);
    let offset = entry ? entry.offset : period;
    if (!entry) entry = trace[0];
    restore(m.sm, entry.state);
    m.at = now + (offset - phase) * div;
    m.count = count + elapsed + (offset - phase);
    m.skipped += elapsed + (offset - phase);
  }

  // Run every machine cycle at sys cycles up to and including `end`, or until wake() says
  // stop after a cycle; returns the sys cycle reached, with the clock moved to it. Clock
  // alarms fire in time order between the machines' cycles, one instant at a time: an alarm
  // that changes an input (touch) wakes the machines waiting for it before time moves on.
  advance(end, wake = null) {
    const clock = this.clock;
    for (;;) {
      if (this.dirty) this._unpark();
      const c = this.next < end ? this.next : end;
      if (c > this.cycle) {
        const t = this.nanosOf(c);
        let alarm = clock.nextAlarm;
        while (alarm && alarm.nanos < t) {          // the alarms before cycle c, in turn
          clock.tick(alarm.nanos - clock.nanos);
          if (this.dirty) break;
          alarm = clock.nextAlarm;
        }
        if (this.dirty) continue;
        this.onCycle(c);                            // to cycle c: its own alarms fire first
        this.cycle = c;
        if (this.dirty) continue;
      }
      if (this.next > c) return c;                  // c is end: nothing runs there
      this._step(c);
      if (wake && wake()) return c;
    }
  }

  _step(c) {
    const goal = (c + 1) * 256;
    let pios = 0;                           // bit i: PIO i ran a machine
    this.stepping = true;
    for (const m of this.running) {
      if (m.parked || m.at >= goal) continue;
      const slots = this._execute(m);
      if (slots === 0) {
        m.parked = true;
      } else {
        m.at += slots * m.div256;
        m.count += slots;
        if (this.spun) {
          this.spun = false;
          m.parked = true;
          m.spinning = { at: m.at, count: m.count, period: m.loop.period, trace: m.loop.trace, div: m.div256 };
          m.loop = null;
        }
      }
      pios |= 1 << m.pio.index;
    }
    if (pios & 1) this.mcu.pio[0].checkChangedPins();
    if (pios & 2) this.mcu.pio[1].checkChangedPins();
    this.stepping = false;
    this._rescheduled();
  }

  // A pure machine jumped back (or wrapped) to sm.pc, due at its cycle `count`: the third time
  // it arrives there in the same state, one turn apart, with nothing changed, it spins.
  _cameRound(m, count) {
    const sm = m.sm;
    const loop = m.loop;
    const state = snapshot(sm);
    if (loop && loop.pc === sm.pc && loop.epoch === this.epoch && same(loop.state, state)) {
      if (!loop.trace) {                    // twice: record the next turn
        loop.trace = [];
        loop.period = count - loop.count;
        loop.count = count;
        return;
      }
      if (count - loop.count === loop.period && loop.trace.length) {
        this.spun = true;                   // three times: park it (in _step)
        return;
      }
    }
    m.loop = { pc: sm.pc, state, epoch: this.epoch, count, trace: null, period: 0 };
  }

  // One cycle of machine m: the number of its cycles until it runs again (0: parked)
  _execute(m) {
    const sm = m.sm;
    this.current = sm;
    try {
      if (sm.waiting) {
        const before = sm.cycles;
        const irq = sm.waitType === WAIT_IRQ;
        sm.checkWait();
        if (sm.waiting) return this.shortcuts ? 0 : 1;
        if (irq) this.touch();              // `wait 1 irq` cleared the flag
        return 1 + (sm.cycles - before);    // this cycle, then the instruction's delay
      }
      const pc = sm.pc;
      const opcode = sm.pio.instructions[pc];
      const pure = isPure(opcode, sm);
      const loop = m.loop;
      const state = pure && loop && loop.trace ? snapshot(sm) : null;
      const before = sm.cycles;
      sm.updatePC = true;
      sm.executeInstruction(opcode);
      if (sm.updatePC) sm.nextPC();
      m.instructions++;
      if (opcode >>> 13 === OP_IRQ) this.touch();
      if (sm.waiting) { m.loop = null; return 1; }      // stalled: poll again next cycle
      const slots = sm.cycles - before;     // 1 + delay (+1 for an EXEC'd instruction)
      if (!pure) m.loop = null;
      else {
        if (state) {
          loop.trace.push({ offset: m.count - loop.count, state });
          if (loop.trace.length > 64) m.loop = null;      // too long a loop to keep
        }
        if (sm.pc <= pc && this.shortcuts) this._cameRound(m, m.count + slots);
      }
      return slots;
    } finally {
      this.current = null;
    }
  }
}

// An instruction whose only effects are on the machine's own registers (so that a loop of them
// with the same inputs does the same thing every turn): JMP; IN without autopush; OUT to X,
// Y, NULL, PC or ISR without autopull; MOV to X, Y, ISR, OSR or PC; SET X or Y; and no side-set.
const SHIFTCTRL_AUTOPUSH = 1 << 16;
const SHIFTCTRL_AUTOPULL = 1 << 17;
const EXECCTRL_SIDE_EN = 1 << 30;

function isPure(opcode, sm) {
  const sides = (sm.pinCtrl >>> 29) & 7;
  if (sides && (!(sm.execCtrl & EXECCTRL_SIDE_EN) || opcode & 0x1000)) return false;
  const destination = (opcode >>> 5) & 7;
  switch (opcode >>> 13) {
    case 0b000: return true;                                            // JMP
    case 0b010: return !(sm.shiftCtrl & SHIFTCTRL_AUTOPUSH);            // IN
    case 0b011: return !(sm.shiftCtrl & SHIFTCTRL_AUTOPULL)             // OUT
      && destination !== 0 && destination !== 4 && destination !== 7;
    case 0b101: return destination !== 0 && destination !== 4 && destination !== 3;   // MOV
    case 0b111: return destination === 1 || destination === 2;          // SET
    default: return false;                                              // WAIT, PUSH/PULL, IRQ
  }
}

function snapshot(sm) {
  return [sm.pc, sm.x, sm.y, sm.inputShiftReg, sm.inputShiftCount, sm.outputShiftReg,
          sm.outputShiftCount];
}

function same(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function restore(sm, state) {
  [sm.pc, sm.x, sm.y, sm.inputShiftReg, sm.inputShiftCount, sm.outputShiftReg,
   sm.outputShiftCount] = state;
}
