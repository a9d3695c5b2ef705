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
//   would have been by then (same instruction, same registers, same cycle), and runs on;
// - a loop that also writes pins (the 74HC165 chain's poll: SH/LD low, 32 CLK pulses, QH read
//   into the ISR) is parked the same way when what it clocks is as it was one turn before:
//   every pin it changed in a turn belongs to a device attached here (`attach`), whose state
//   (`state()`: its inputs, flip-flops and anything in flight) is the same at the start of two
//   turns, and nothing outside changed in between (a pin input other than the devices' own
//   answers, a PIO register, an IRQ: the `world` count; its own FIFOs do not count, as the loop
//   has no PUSH, PULL or MOV from STATUS). Its devices then see no edges while it is parked, so
//   it can only be put back at the start of a turn: before every clock alarm (a device's event
//   may come with it), at the last turn start at or before the alarm, so that the loop meets
//   the event running for real, exactly as it would have (the parked machine is due there: the
//   emulator's loop cannot pass it); after a change outside, at the next turn start. An alarm
//   set less than a turn ahead that changes a device (its `version()`) is met a turn late:
//   counted in `lateResumes`, and reported.
//
// Used by pico.mjs: `advance(cycle)` runs every machine cycle up to and including sys cycle
// `cycle`, ticking the clock to each so that GPIO listeners see exact times.

const SHIFTCTRL_FJOIN_TX = 1 << 30;
const SHIFTCTRL_FJOIN_RX = 1 << 31;
const CTRL = 0x000;
const SHIFTCTRL_OFFSETS = [0x0d0, 0x0e8, 0x100, 0x118];
const CLKDIV_OFFSETS = [0x0c8, 0x0e0, 0x0f8, 0x110];
const RXF = [0x020, 0x024, 0x028, 0x02c];
const TXF = [0x010, 0x014, 0x018, 0x01c];
const ADDR = [0x0d4, 0x0ec, 0x104, 0x11c];      // SMn_ADDR and SMn_INSTR: where a machine is
const INSTR = [0x0d8, 0x0f0, 0x108, 0x120];
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
    this.loops = new Map(); // loops being watched, by the pc they jump back to
    this.tracing = null;    // the one whose turn is being recorded
    this.pinOps = 0;        // instructions run that write pins
    this.statusOps = 0;     // ... that read STATUS
    this.spinning = null;   // parked in a loop: {at, count, period, trace, div, pins, world}
  }

  get div256() {
    const { clockDivInt, clockDivFrac } = this.sm;
    return (clockDivInt || 65536) * 256 + clockDivFrac;
  }

  forget() {
    this.loops.clear();
    this.tracing = null;
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
    this.next = Infinity;       // the next sys cycle at which a machine runs (or wakes)
    this.wake = Infinity;       // ... at which a machine parked in a pin loop wakes
    this.dirty = false;         // something a parked machine may wait for has changed
    this.epoch = 0;             // counts those changes
    this.from = 0;              // ... seen from this sys cycle on
    this.world = 0;             // counts them but the attached devices' answers and FIFO accesses
    this.devices = [];          // attached: {listens, drives (pin masks), state(), version()}
    this.answers = 0;           // pins the attached devices drive (mask)
    this.listening = 0;         // pins they listen to (mask)
    this.spinners = [];         // machines parked in a loop that writes pins
    this.lateResumes = 0;       // ... put back a turn late (see above)
    this.edges = (mask) => 0;   // level changes so far on the pins of a mask (set by the emulator)
    this.stepping = false;      // inside _step: a change is seen from the next cycle
    this.spun = false;          // the machine just run has been found spinning
    this.current = null;        // the rp2040js StateMachine inside its own cycle
    this.onCycle = null;        // the emulator's clock hook: (cycle) => void, before each cycle
    this.clockCycle = () => this.cycle;     // the sys cycle the clock is at (set by the emulator)
    this.nanosOf = (cycle) => cycle * 8;    // the clock time of a sys cycle (set by the emulator)
    this.cycleOf = (nanos) => Math.ceil(nanos / 8);     // the first sys cycle at or after a time
    for (const pio of mcu.pio) this._adopt(pio);
    // an alarm sooner than any before: a machine parked in a pin loop must wake before it
    const link = clock.linkAlarm.bind(clock);
    clock.linkAlarm = (nanos, alarm) => {
      link(nanos, alarm);
      if (this.spinners.length && clock.nextAlarm === alarm) this._rescheduled();
      return alarm;
    };
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
      this.touch(!TXF.includes(offset));
    };
    const read = pio.readUint32.bind(pio);
    pio.readUint32 = (offset) => {
      if (RXF.includes(offset)) this.touch(false);
      else if (this.running.some((m) => m.spinning)) {   // SMn_ADDR, X via EXEC...: be exact
        const sm = Math.max(ADDR.indexOf(offset), INSTR.indexOf(offset));
        const m = sm >= 0 ? machines[sm] : null;
        if (m && m.parked && m.spinning && m.spinning.pins) return this._peek(m, () => read(offset));
        this.touch(false);
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
        m.spinning = null;
        m.forget();
      }
      m.on = on;
    }
    this.running = this.machines.filter((m) => m.on);
    this._spinners();
    this._rescheduled();
  }

  // A device on the pins: `listens` and `drives` are lists of GPIO numbers; `state()` returns a
  // value that is the same (===) when the device would answer the same pin sequence the same
  // way (null: something in flight, never the same); `version()` changes with every change.
  attach({ listens, drives, state, version }) {
    const mask = (pins) => pins.reduce((m, p) => m | (1 << p), 0);
    const device = { listens: mask(listens), drives: mask(drives), state, version };
    this.devices.push(device);
    this.answers |= device.drives;
    this.listening |= device.listens;
    return device;
  }

  // something a parked machine may be waiting for has changed; `world`: false for an access to
  // a FIFO, which a loop with no FIFO instruction cannot see
  touch(world = true) {
    const from = this.stepping ? this.cycle + 1 : Math.max(this.cycle, this.clockCycle());
    if (!this.dirty || from < this.from) this.from = from;
    this.dirty = true;
    this.epoch++;
    if (world) this.world++;
  }

  // the input of GPIO `pin` changed: an attached device's answer or the echo of a pin that
  // drives one (the machine clocking it), or a change from outside
  touchPin(pin) {
    this.touch(!((this.answers | this.listening) & (1 << pin)));
  }

  _rescheduled() {
    let next = Infinity;
    for (const m of this.running) {
      if (!m.parked) {
        const c = Math.floor(m.at / 256);
        if (c < next) next = c;
      }
    }
    this.wake = Infinity;
    const alarm = this.clock.nextAlarm;
    if (this.spinners.length && alarm) {
      // the last start of a turn at or before the next alarm's cycle (if still to come)
      const last = (this.cycleOf(alarm.nanos) + 1) * 256;
      for (const m of this.spinners) {
        const sp = m.spinning;
        const turn = sp.period * sp.div;
        sp.turns = Math.max(0, Math.ceil((last - sp.at) / turn) - 1);
        const cycle = Math.floor((sp.at + sp.turns * turn) / 256);
        sp.wake = cycle > this.cycle ? cycle : Infinity;
        if (sp.wake < this.wake) this.wake = sp.wake;
      }
    }
    this.next = next < this.wake ? next : this.wake;
  }

  _unpark() {
    this.dirty = false;
    for (const m of this.running) {
      if (m.parked && m.spinning && m.spinning.pins && m.spinning.world === this.world) continue;
      if (!m.parked) continue;         // (a loop it runs in is checked against epoch or world)
      m.forget();
      m.parked = false;
      if (m.spinning) this._resume(m, this.from);
      else m.align(this.from);
    }
    this._spinners();
    this._rescheduled();
  }

  _spinners() {
    this.spinners = this.running.filter((m) => m.parked && m.spinning && m.spinning.pins);
  }

  // put a spinning machine where its loop has got to by its first cycle from sys cycle `from`
  // on; a loop that writes pins, at the first start of a turn from then on
  _resume(m, from) {
    const { at, count, period, trace, div, pins } = m.spinning;
    m.spinning = null;
    const goal = from * 256;
    const now = at < goal ? at + Math.ceil((goal - at) / div) * div : at;
    const elapsed = Math.round((now - at) / div);
    const phase = elapsed % period;
    let entry = pins ? (phase === 0 ? trace[0] : null) : trace.find((e) => e.offset >= phase);
    let offset = entry ? entry.offset : period;
    if (!entry) entry = trace[0];
    restore(m.sm, entry.state);
    m.at = now + (offset - phase) * div;
    m.count = count + elapsed + (offset - phase);
    m.skipped += elapsed + (offset - phase);
  }

  // a register read of a machine parked in a pin loop (SMn_ADDR, SMn_INSTR): answered with the
  // machine where its loop has got to, and parked again
  _peek(m, read) {
    const { at, period, trace, div } = m.spinning;
    const goal = Math.max(this.cycle, this.clockCycle()) * 256;
    const elapsed = at < goal ? Math.ceil((goal - at) / div) : 0;
    const phase = elapsed % period;
    const entry = trace.find((e) => e.offset >= phase) ?? trace[0];
    restore(m.sm, entry.state);
    const value = read();
    restore(m.sm, trace[0].state);
    return value;
  }

  // sys cycle c is where machines parked in pin loops wake (the turn before an alarm): they
  // are put back at the start of that turn, to run from it
  _wakeAt(c) {
    for (const m of this.spinners) {
      const sp = m.spinning;
      if (sp.wake !== c) continue;
      restore(m.sm, sp.trace[0].state);
      m.at = sp.at + sp.turns * sp.period * sp.div;
      m.count = sp.count + sp.turns * sp.period;
      m.skipped += sp.turns * sp.period;
      m.spinning = null;
      m.parked = false;
    }
    this._spinners();
    this._rescheduled();
  }

  // a device of a machine parked in a pin loop changed without its wake first: put the
  // machine back at the next start of a turn (a turn late if one had begun since it parked)
  _checkSpinners() {
    let late = false;
    for (const m of this.spinners) {
      const sp = m.spinning;
      if (sp.versions === null || sp.devices.every((d, i) => d.version() === sp.versions[i])) continue;
      if (this.clockCycle() > Math.floor(sp.at / 256)) this.lateResumes++;
      m.parked = false;
      this._resume(m, Math.max(this.cycle + 1, this.clockCycle()));
      late = true;
    }
    if (late) {
      this._spinners();
      this._rescheduled();
    }
    return late;
  }

  // Run every machine cycle at sys cycles up to and including `end`, or until wake() says
  // stop after a cycle; returns the sys cycle reached, with the clock moved to it. Clock
  // alarms fire in time order between the machines' cycles, one instant at a time: an alarm
  // that changes an input (touch) wakes the machines waiting for it before time moves on.
  advance(end, wake = null) {
    const clock = this.clock;
    outer: for (;;) {
      if (this.dirty) this._unpark();
      if (this.spinners.length) this._checkSpinners();
      const c = this.next < end ? this.next : end;
      if (c > this.cycle) {
        const t = this.nanosOf(c);
        let alarm = clock.nextAlarm;
        while (alarm && alarm.nanos < t) {          // the alarms before cycle c, in turn
          clock.tick(alarm.nanos - clock.nanos);
          if (this.dirty) break;
          if (this.spinners.length) {               // one gone, or a sooner one set: a
            this._checkSpinners();                  // parked machine's wake is recomputed
            this._rescheduled();
            if (this.next < c) continue outer;
          }
          alarm = clock.nextAlarm;
        }
        if (this.dirty) continue;
        this.onCycle(c);                            // to cycle c: its own alarms fire first
        this.cycle = c;
        if (this.spinners.length) this._checkSpinners();
        if (this.dirty) continue;
      }
      if (this.wake === c) this._wakeAt(c);
      if (this.next > c) return c;                  // c is end: nothing runs there
      this._step(c);
      if (wake && wake()) return c;
    }
  }

  _step(c) {
    const goal = (c + 1) * 256;
    let pios = 0;                           // bit i: PIO i ran a machine
    let parkedPins = false;
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
          const loop = m.tracing;
          m.parked = true;
          m.spinning = { at: m.at, count: m.count, period: loop.period, trace: loop.trace,
                         div: m.div256, pins: loop.pins, world: this.world,
                         devices: loop.devices, versions: null };
          m.forget();
          if (loop.pins) parkedPins = true;
        }
      }
      pios |= 1 << m.pio.index;
    }
    if (pios & 1) this.mcu.pio[0].checkChangedPins();
    if (pios & 2) this.mcu.pio[1].checkChangedPins();
    this.stepping = false;
    if (parkedPins) {               // its devices as its last instruction left them
      this._spinners();
      for (const m of this.spinners) {
        const sp = m.spinning;
        if (sp.versions === null) sp.versions = sp.devices.map((d) => d.version());
      }
    }
    this._rescheduled();
  }

  // A pure machine jumped back (or wrapped) to sm.pc, due at its cycle `count`: the third time
  // it arrives there in the same state, one turn apart, with nothing changed, it spins. Each pc
  // jumped back to is watched on its own: a loop inside a loop (the chain's 32 bits inside its
  // poll) never comes round in the same state, the outer one does.
  //
  // A loop that writes pins counts only changes from outside (world), and needs more: the
  // pins it changed in the recorded turn are attached devices' (no other pin of its own
  // changed level), and those devices are in the same state at both ends of that turn.
  _cameRound(m, count) {
    const sm = m.sm;
    const loop = m.loops.get(sm.pc);
    const state = snapshot(sm);
    if (loop && same(loop.state, state)) {
      const pins = m.pinOps !== loop.pinOps;
      if (pins ? m.statusOps === loop.statusOps && loop.world === this.world
               : loop.epoch === this.epoch) {
        if (!loop.trace) {                  // twice: record the next turn
          loop.trace = [];
          loop.period = count - loop.count;
          loop.count = count;
          loop.pins = pins;
          if (pins) this._devicesBefore(m, loop);
          m.tracing = loop;
          return;
        }
        if (loop === m.tracing && count - loop.count === loop.period && loop.trace.length
            && pins === loop.pins && (!pins || this._devicesSame(m, loop))) {
          this.spun = true;                 // three times: park it (in _step)
          return;
        }
      }
    }
    if (loop === m.tracing) m.tracing = null;
    m.loops.set(sm.pc, { state, epoch: this.epoch, world: this.world, count, trace: null,
                         period: 0, pins: false, pinOps: m.pinOps, statusOps: m.statusOps,
                         devices: null, states: null, edges: 0 });
  }

  _devicesBefore(m, loop) {
    const mask = writeMask(m.sm);
    loop.devices = this.devices.filter((d) => d.listens & mask);
    loop.states = loop.devices.map((d) => d.state());
    loop.edges = this.edges(mask & ~this.listening);
  }

  _devicesSame(m, loop) {
    const mask = writeMask(m.sm);
    if (this.edges(mask & ~this.listening) !== loop.edges) return false;
    if (this.devices.some((d) => (d.listens & mask) && !loop.devices.includes(d))) return false;
    return loop.devices.every((d, i) => {
      const now = d.state();
      return now !== null && now === loop.states[i];
    });
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
      const kind = effects(opcode, sm);
      const pure = kind !== IMPURE;
      if (kind === PINS) m.pinOps++;
      else if (kind === STATUS) m.statusOps++;
      const loop = m.tracing;
      const state = pure && loop ? snapshot(sm) : null;
      const before = sm.cycles;
      sm.updatePC = true;
      sm.executeInstruction(opcode);
      if (sm.updatePC) sm.nextPC();
      m.instructions++;
      if (opcode >>> 13 === OP_IRQ) this.touch();
      if (sm.waiting) { m.forget(); return 1; }         // stalled: poll again next cycle
      const slots = sm.cycles - before;     // 1 + delay (+1 for an EXEC'd instruction)
      if (!pure) m.forget();
      else {
        if (state) {
          loop.trace.push({ offset: m.count - loop.count, state });
          if (loop.trace.length > 256) m.forget();         // too long a loop to keep
        }
        if (sm.pc <= pc && this.shortcuts) this._cameRound(m, m.count + slots);
      }
      return slots;
    } finally {
      this.current = null;
    }
  }
}

// What an instruction touches besides the machine's own registers (so that a loop of them with
// the same inputs does the same thing every turn). PURE: JMP; IN without autopush; OUT to X,
// Y, NULL, PC or ISR without autopull; MOV to X, Y, ISR, OSR or PC; SET X or Y; and no side-set.
// PINS: the same, or writing pins or pin directions (OUT, MOV or SET to PINS or PINDIRS, a
// side-set). STATUS: a MOV from STATUS (the FIFO levels). IMPURE: the rest (WAIT, PUSH, PULL,
// IRQ, autopush and autopull, OUT or MOV to EXEC).
const SHIFTCTRL_AUTOPUSH = 1 << 16;
const SHIFTCTRL_AUTOPULL = 1 << 17;
const EXECCTRL_SIDE_EN = 1 << 30;
const IMPURE = 0;
const PURE = 1;
const PINS = 2;
const STATUS = 3;

function effects(opcode, sm) {
  const sides = (sm.pinCtrl >>> 29) & 7;
  const sideSet = sides && (!(sm.execCtrl & EXECCTRL_SIDE_EN) || opcode & 0x1000);
  const own = sideSet ? PINS : PURE;
  const destination = (opcode >>> 5) & 7;
  switch (opcode >>> 13) {
    case 0b000: return own;                                             // JMP
    case 0b010: return sm.shiftCtrl & SHIFTCTRL_AUTOPUSH ? IMPURE : own;   // IN
    case 0b011:                                                         // OUT
      if (sm.shiftCtrl & SHIFTCTRL_AUTOPULL || destination === 7) return IMPURE;
      return destination === 0 || destination === 4 ? PINS : own;
    case 0b101:                                                         // MOV
      if (destination === 3 || destination === 4) return IMPURE;
      if ((opcode & 7) === 5) return own === PINS || destination === 0 ? IMPURE : STATUS;
      return destination === 0 ? PINS : own;
    case 0b111:                                                         // SET
      return destination === 0 || destination === 4 ? PINS : destination === 1 || destination === 2 ? own : IMPURE;
    default: return IMPURE;                                             // WAIT, PUSH/PULL, IRQ
  }
}

// the pins a machine may drive: its OUT, SET and side-set ranges (PINCTRL), wrapping at 32
function writeMask(sm) {
  const ctrl = sm.pinCtrl;
  let mask = 0;
  const range = (base, count) => { for (let i = 0; i < count; i++) mask |= 1 << ((base + i) & 31); };
  range(ctrl & 31, (ctrl >>> 20) & 63);
  range((ctrl >>> 5) & 31, (ctrl >>> 26) & 7);
  range((ctrl >>> 10) & 31, ((ctrl >>> 29) & 7) - (sm.execCtrl & EXECCTRL_SIDE_EN ? 1 : 0));
  return mask;
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
