// An emulated Raspberry Pi Pico: rp2040js 1.4.1 with the RP2040 boot ROM and an official
// MicroPython 1.27 UF2 from the emulated-Pico kit (the folder LAYLI_PICO_KIT names), driven by
// our own loop so that the CPU, the PIO state machines, the input synchronisers and the
// board's devices share one clock.
//
// Grown from the team kit's run/pico.mjs (the USB host that NAKs, the UART interrupt fix, the
// raw-REPL-free boot), with these changes: PIO in lockstep with clk_sys (pio.mjs), pads with
// pulls, loopback and synchronisers (pins.mjs), the XIP cache's misses (xip.mjs), time kept in
// sys cycles, and a run loop that stops at a given emulated time or wall budget (for the
// server's pacing). README.md beside this file lists what is modelled and what is not.
//
//   const pico = new Pico({ kit: process.env.LAYLI_PICO_KIT });
//   pico.boot();                              // firmware.uf2, or pico.boot({ flashImage })
//   pico.run(pico.nanos + 1e9, 50);           // one emulated second, at most 50 ms of wall
//   pico.onSerial = (bytes) => ...;  pico.send('print(1)\r');

import fs from 'node:fs';
import path from 'node:path';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { decodeBlock } from 'uf2';
import { installFlash } from './flash.mjs';
import { PioLockstep } from './pio.mjs';
import { Pads } from './pins.mjs';
import { installXipCache } from './xip.mjs';

const FLASH_START = 0x10000000;
const UART_BAUD = 115200;

// The kit's files, or an Error that says what is missing (the Python side shows it as a skip).
export function kitFiles(kit, { uart = false } = {}) {
  if (!kit) {
    throw new Error('the emulated Pico needs LAYLI_PICO_KIT (a folder with firmware.uf2 and ' +
                    'bootrom-b1.bin); .ci/run sets it');
  }
  const files = {
    uf2: path.join(kit, uart ? 'firmware-uart.uf2' : 'firmware.uf2'),
    bootrom: path.join(kit, 'bootrom-b1.bin'),
  };
  for (const file of Object.values(files)) {
    if (!fs.existsSync(file)) {
      throw new Error(`LAYLI_PICO_KIT is ${kit}, which has no ${path.basename(file)} ` +
                      '(the kit holds firmware.uf2, bootrom-b1.bin and optionally firmware-uart.uf2)');
    }
  }
  return files;
}

// rp2040js 1.4.1's DMA pacing timers: TIMERn makes a transfer request at (X / Y) * clk_sys
// (RP2040 datasheet 2.5.3.4, X in bits 31:16, Y in 15:0), a period of Y / (X * clk_sys); it
// computed X / (Y * clk_sys) and read TIMER3's X as `>>> 36` (that is, `>>> 4`).
const TREQ_TIMER0 = 59;
const TREQ_PERMANENT = 63;

function fixDmaPacing(mcu) {
  const dma = mcu.dma;
  dma.getTimer = function (treq) {
    if (treq === TREQ_PERMANENT) return 1e6 / mcu.clkSys;
    const k = treq - TREQ_TIMER0;
    if (k < 0 || k > 3) return 0;
    const value = [this.timer0, this.timer1, this.timer2, this.timer3][k] >>> 0;
    const x = value >>> 16, y = value & 0xffff;
    if (!x || !y) return 0;
    return (y / x) * 1e6 / mcu.clkSys;          // microseconds between requests
  };
}

export class Pico {
  constructor({ kit, uart = false, flashTiming = true, pioShortcuts = true, xipCache = true,
                log = LogLevel.Error } = {}) {
    this.files = kitFiles(kit, { uart });
    this.sim = new Simulator();
    this.clock = this.sim.clock;
    this.mcu = this.sim.rp2040;
    const rom = fs.readFileSync(this.files.bootrom);
    this.mcu.loadBootrom(new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.byteLength)));
    this.mcu.logger = new ConsoleLogger(log);
    this.flash = installFlash(this.mcu, { timing: flashTiming });
    this.xip = xipCache ? installXipCache(this.mcu) : null;     // stalls on its misses (xip.mjs)
    this.pads = new Pads(this.mcu, this.clock);
    this.pio = new PioLockstep(this.mcu, this.clock, { shortcuts: pioShortcuts });
    this.pads.touch = (pin) => this.pio.touchPin(pin);
    this.pio.edges = (mask) => this.pads.edges(mask);
    this.pio.onCycle = (cycle) => this._tickTo(cycle);
    this.pio.clockCycle = () => this.cycleAt(this.clock.nanos);
    this.pio.cycleOf = (nanos) => this.cycleAt(nanos);
    this.pio.nanosOf = (cycle) => this.baseNanos + (cycle - this.baseCycle) * this.cycleNanos;
    this._rebase();
    this.mcu.addClockListener(() => this._rebase());
    fixDmaPacing(this.mcu);
    this.uart = uart;
    this.stopped = null;            // why the CPU stopped, once it has
    this.mcu.onBreak = (code) => { this.stopped = `the CPU hit a breakpoint (BKPT ${code})`; };
    // rp2040js' watchdog resets nothing when it fires (and its alarm then fires again at the
    // same instant, for ever): machine.reset() or a watchdog timeout would hang the emulator.
    // Stop the watchdog and the CPU, and say so (power_cycle() starts it again).
    const watchdog = this.mcu.findPeripheral(0x40058000);
    watchdog.onWatchdogTrigger = () => {
      watchdog.alarm.enable = false;
      watchdog.timer.enable = false;
      this.stopped = 'the Pico reset itself (machine.reset() or its watchdog), which the ' +
        'emulator does not do: power-cycle it to start again';
    };
    this.onSerial = null;           // (Uint8Array) => void: bytes the Pico sends
    this.connected = false;         // the USB host has enumerated the CDC device
    this.txQueue = [];              // bytes for the Pico, not yet taken
    this.idleCycles = 0;            // sys cycles spent with the CPU asleep
    if (uart) this._uart(); else this._usb();
  }

  // ---------------------------------------------------------------- time
  _rebase() {
    this.baseCycle = this.cycle ?? 0;
    this.baseNanos = this.clock.nanos;
    this.cycleNanos = 1e9 / this.mcu.clkSys;
  }

  get cycle() { return this.pio?.cycle; }
  get nanos() { return this.clock.nanos; }

  // the first sys cycle boundary at or after `nanos`
  cycleAt(nanos) {
    return this.baseCycle + Math.max(0, Math.ceil((nanos - this.baseNanos) / this.cycleNanos - 1e-9));
  }

  _tickTo(cycle) {
    const target = this.baseNanos + (cycle - this.baseCycle) * this.cycleNanos;
    if (target > this.clock.nanos) this.clock.tick(target - this.clock.nanos);
  }

  // ---------------------------------------------------------------- loading
  boot({ flashImage = null } = {}) {
    if (flashImage) {
      this.mcu.flash.set(fs.readFileSync(flashImage), 0);
    } else {
      const data = fs.readFileSync(this.files.uf2);
      for (let at = 0; at + 512 <= data.length; at += 512) {
        const { flashAddress, payload } = decodeBlock(data.subarray(at, at + 512));
        this.mcu.flash.set(payload, flashAddress - FLASH_START);
      }
    }
    this.mcu.core.PC = FLASH_START;     // into boot2 at the start of flash, as Wokwi does
  }

  saveFlash(file) {
    fs.writeFileSync(file, this.mcu.flash);
  }

  // ---------------------------------------------------------------- the serial link
  _usb() {
    this.cdc = new USBCDC(this.mcu.usbCtrl);
    this.cdc.onDeviceConnected = () => { this.connected = true; };
    this.cdc.onSerialData = (bytes) => this.onSerial?.(bytes);
    // rp2040js' USB host answers every armed CDC OUT buffer after 10 us, with an empty packet
    // when it has nothing to send, and TinyUSB re-arms at once: two thirds of the CPU went on
    // USB interrupts. A real host NAKs instead: hold the armed buffer until there is data.
    const usb = this.mcu.usbCtrl;
    const read = usb.onEndpointRead;
    this._cdcRead = read;
    this._pendingOut = null;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint === this.cdc.outEndpoint && this.cdc.txFIFO.empty) {
        this._pendingOut = [endpoint, size];
        return;
      }
      read(endpoint, size);
    };
  }

  _uart() {
    this.connected = true;
    const u = this.mcu.uart[0];
    // rp2040js 1.4.1 raises the UART TX interrupt again on every register access, so the UART
    // REPL's handler never returns. As on a PL011: raised when a byte is written (the emulated
    // FIFO drains at once), cleared by UARTICR.
    const TXINTR = 1 << 5;
    u.checkInterrupts = function () {
      this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
    };
    const write = u.writeUint32.bind(u);
    u.writeUint32 = function (offset, value) {
      write(offset, value);
      if (offset === 0) { this.interruptStatus |= TXINTR; this.checkInterrupts(); }
    };
    u.onByte = (byte) => this.onSerial?.(Uint8Array.of(byte));
    this.nextRxNanos = 0;
  }

  send(data) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (const b of bytes) this.txQueue.push(b);
  }

  // hand queued bytes to the Pico as fast as its side takes them
  _pump() {
    if (!this.txQueue.length || !this.connected) return;
    if (this.uart) {
      const u = this.mcu.uart[0];
      const now = this.clock.nanos;
      if (this.nextRxNanos < now - 1e6) this.nextRxNanos = now;
      while (this.txQueue.length && !u.rxFIFO.full && this.nextRxNanos <= now) {
        u.feedByte(this.txQueue.shift());
        this.nextRxNanos += 10 * 1e9 / UART_BAUD;
      }
      return;
    }
    const fifo = this.cdc.txFIFO;
    while (this.txQueue.length && fifo.itemCount < 256) this.cdc.sendSerialByte(this.txQueue.shift());
    if (this._pendingOut && !fifo.empty) {
      const [endpoint, size] = this._pendingOut;
      this._pendingOut = null;
      this._cdcRead(endpoint, size);
    }
  }

  // ---------------------------------------------------------------- running
  // Run until emulated time reaches `untilNanos` or `wallMs` of wall time have gone.
  run(untilNanos, wallMs = 20) {
    const { clock, pio } = this;
    const core = this.mcu.core;
    const deadline = performance.now() + wallMs;
    this._pump();
    for (let n = 1; !this.stopped && clock.nanos < untilNanos; n++) {
      if ((n & 4095) === 0) {
        this._pump();
        if (performance.now() > deadline) break;
      }
      if (core.waiting) {
        this._pump();                   // bytes from the host may wake it
        if (core.waiting) this._sleep(untilNanos);
        continue;
      }
      const end = pio.cycle + core.executeInstruction();
      // through the PIO only when a machine is due, or an alarm inside this instruction may
      // wake one; else straight on
      const alarm = clock.nextAlarm;
      if (pio.running.length && (pio.dirty || pio.next <= end
          || (alarm !== null && alarm.nanos <= this.baseNanos + (end - this.baseCycle) * this.cycleNanos))) {
        pio.advance(end);
      } else {
        this._tickTo(end);
        pio.cycle = end;
      }
    }
  }

  // The CPU waits for an interrupt: move on to the next clock alarm (a timer, a USB packet, a
  // device's event), running the PIO machines that are not stalled on the way; when every
  // machine is stalled this is one jump.
  _sleep(untilNanos) {
    const { clock, pio } = this;
    const core = this.mcu.core;
    const alarm = clock.nextAlarm;
    const start = pio.cycle;
    // at most 1 ms at a time, so that the caller's wall-time checks come round
    let end = this.cycleAt(Math.min(alarm ? alarm.nanos : Infinity, untilNanos, this.clock.nanos + 1e6));
    if (this.uart && this.txQueue.length) end = Math.min(end, this.cycleAt(this.nextRxNanos));
    if (end <= start) end = start + 1;
    if (pio.running.length) {
      end = pio.advance(end, () => !core.waiting);
    } else {
      this._tickTo(end);
      pio.cycle = end;
    }
    this.idleCycles += end - start;
  }

  stats() {
    return {
      nanos: this.clock.nanos,
      cycles: this.pio.cycle,
      cpuCycles: this.mcu.core.cycles,
      idleCycles: this.idleCycles,
      clkSysHz: this.mcu.clkSys,
      pioInstructions: this.pio.machines.reduce((sum, m) => sum + m.instructions, 0),
      pioSkippedCycles: this.pio.machines.reduce((sum, m) => sum + m.skipped, 0),
      pioLateResumes: this.pio.lateResumes,
      xip: this.xip ? { ...this.xip } : null,
    };
  }
}
