#!/usr/bin/env node
// The emulated Pico as a process: the REPL's byte stream (USB CDC, or UART0 with --uart) on a
// local TCP port for mpremote and pyserial, and a control channel of JSON lines on
// stdin/stdout for the board's parts and the emulated clock. firmware/emulator/README.md
// describes the commands; emulated.py drives it from Python.
//
//   node firmware/emulator/serve.mjs [--kit DIR] [--board FILE.json] [--serial-port N]
//        [--mode realtime|fast|paused] [--uart] [--flash-in IMG] [--flash-out IMG]
//        [--seed N] [--spread X] [--no-flash-timing] [--no-pio-shortcuts]
//        [--no-xip-cache]
//
// --kit defaults to $LAYLI_PICO_KIT. The first line on stdout is
//   {"ready": true, "serial_port": 40123, "serial_url": "socket://127.0.0.1:40123", ...}
// then one reply line per command line on stdin. Modes: realtime (emulated time never runs
// ahead of wall time, so a host's timeouts mean what they say), fast (as fast as the machine
// goes, for benchmarks), paused (only `run` moves the clock).

import fs from 'node:fs';
import net from 'node:net';
import readline from 'node:readline';
import { Pico } from './pico.mjs';
import { Board, BoardError, gpio, number } from './board.mjs';
import { Probe } from './devices.mjs';

const MODES = ['realtime', 'fast', 'paused'];
const AHEAD_NS = 2e6;       // realtime: emulated time may lead wall time by this much at most
const SLICE_MS = 15;        // wall time per slice of emulation between I/O events

function parseArgs(argv) {
  const o = { kit: process.env.LAYLI_PICO_KIT, serialPort: 0, mode: 'realtime', seed: 1, spread: undefined, flashTiming: true, pioShortcuts: true, xipCache: true };
  const value = (i) => {
    if (i >= argv.length) throw new Error(`${argv[i - 1]} needs a value`);
    return argv[i];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--kit') o.kit = value(++i);
    else if (a === '--board') o.board = value(++i);
    else if (a === '--serial-port') o.serialPort = Number(value(++i));
    else if (a === '--mode') o.mode = value(++i);
    else if (a === '--uart') o.uart = true;
    else if (a === '--flash-in') o.flashIn = value(++i);
    else if (a === '--flash-out') o.flashOut = value(++i);
    else if (a === '--seed') o.seed = Number(value(++i));
    else if (a === '--spread') o.spread = Number(value(++i));
    else if (a === '--no-flash-timing') o.flashTiming = false;
    else if (a === '--no-pio-shortcuts') o.pioShortcuts = false;
    else if (a === '--no-xip-cache') o.xipCache = false;
    else throw new Error(`unknown option ${a}`);
  }
  if (!MODES.includes(o.mode)) throw new Error(`--mode is one of ${MODES.join(', ')}, not ${o.mode}`);
  if (!Number.isInteger(o.serialPort) || o.serialPort < 0 || o.serialPort > 65535) throw new Error('--serial-port takes a TCP port (0: any free one)');
  if (o.flashIn && !fs.existsSync(o.flashIn)) throw new Error(`--flash-in ${o.flashIn}: no such file`);
  return o;
}

class Server {
  constructor(options) {
    this.options = options;
    this.pico = new Pico({ kit: options.kit, uart: options.uart, flashTiming: options.flashTiming,
                          pioShortcuts: options.pioShortcuts, xipCache: options.xipCache });
    this.board = null;
    this.probes = {};
    this.mode = options.mode;
    this.wallOrigin = performance.now();
    this.runs = [];             // pending `run` commands: {until, reply}
    this.client = null;
    this.timer = null;
    this.slices = { busyCycles: 0, busyWall: 0 };
    this.pico.onSerial = (bytes) => { if (this.client) this.client.write(Buffer.from(bytes)); };
    if (options.board) this.attach(JSON.parse(fs.readFileSync(options.board, 'utf8')));
    this.pico.boot({ flashImage: options.flashIn });
  }

  attach(description, { seed, spread } = {}) {
    if (this.board) throw new BoardError(`a board (${this.board.name}) is attached already`);
    this.board = new Board(this.pico, description, {
      seed: seed ?? this.options.seed, spread: spread ?? this.options.spread,
    });
    return this.board;
  }

  needBoard() {
    if (!this.board) throw new BoardError('no board is attached: send {"cmd": "attach", "board": {...}} first');
    return this.board;
  }

  listen() {
    this.serial = net.createServer((socket) => {
      // one host at a time; a new connection takes the port over, as replugging would
      if (this.client) this.client.destroy();
      this.client = socket;
      socket.setNoDelay(true);
      socket.on('data', (data) => { this.pico.send(data); this.kick(); });
      socket.on('close', () => { if (this.client === socket) this.client = null; });
      socket.on('error', () => {});
    });
    return new Promise((resolve) => this.serial.listen(this.options.serialPort, '127.0.0.1', () => resolve(this.serial.address().port)));
  }

  setMode(mode) {
    if (!MODES.includes(mode)) throw new BoardError(`mode is one of ${MODES.join(', ')}, not ${JSON.stringify(mode)}`);
    this.mode = mode;
    this.wallOrigin = performance.now() - this.pico.nanos / 1e6;     // no catching up
    this.kick();
  }

  // the emulated time this slice may run to
  limit() {
    let limit = Infinity;
    if (this.mode === 'realtime') limit = (performance.now() - this.wallOrigin) * 1e6 + AHEAD_NS;
    if (this.runs.length) {
      const until = Math.min(...this.runs.map((r) => r.until));
      limit = this.mode === 'paused' ? until : Math.min(limit, until);
    } else if (this.mode === 'paused') {
      limit = this.pico.nanos;
    }
    return limit;
  }

  kick() {
    if (this.timer === null) this.timer = setImmediate(() => this.loop());
  }

  loop() {
    this.timer = null;
    const { pico } = this;
    if (pico.stopped) {
      for (const r of this.runs.splice(0)) r.reply({ ok: false, error: pico.stopped });
      return;
    }
    const limit = this.limit();
    if (pico.nanos < limit) {
      const c0 = pico.cycle, i0 = pico.idleCycles, w0 = performance.now();
      pico.run(limit, SLICE_MS);
      const wall = performance.now() - w0;
      const idle = pico.idleCycles - i0, all = pico.cycle - c0;
      if (idle < all / 2) { this.slices.busyCycles += all; this.slices.busyWall += wall; }
    }
    for (const r of this.runs.filter((run) => pico.nanos >= run.until)) {
      this.runs.splice(this.runs.indexOf(r), 1);
      r.reply({ ok: true, ns: pico.nanos, ms: pico.nanos / 1e6 });
    }
    if (this.mode === 'paused' && !this.runs.length) return;           // until a command
    if (this.mode === 'realtime' && pico.nanos >= this.limit()) {
      this.timer = setTimeout(() => this.loop(), 1);
      return;
    }
    this.timer = setImmediate(() => this.loop());
  }

  // one control command; reply(object) answers it
  command(message, reply) {
    const board = () => this.needBoard();
    switch (message.cmd) {
      case 'attach': {
        const b = this.attach(message.board, message);
        return reply({ ok: true, board: b.name, cells: b.hx711.length });
      }
      case 'cells': board().setCells(message.values); return reply({ ok: true });
      case 'cell': board().setCell(message.index, message.value, message.value_b); return reply({ ok: true });
      case 'hx711': board().configure(message.index ?? null, message); return reply({ ok: true });
      case 'unplug': board().unplug(message.index); this.kick(); return reply({ ok: true });
      case 'plug': board().plug(message.index); this.kick(); return reply({ ok: true });
      case 'press': board().press(message.button); this.kick(); return reply({ ok: true });
      case 'release': board().release(message.button); this.kick(); return reply({ ok: true });
      case 'strip': return reply({ ok: true, ...board().stripState() });
      case 'stats': return reply({ ok: true, ...board().stats(), pico: this.picoStats() });
      case 'tones': return reply({ ok: true, ...board().takeTones() });
      case 'reset_stats': board().resetStats(); return reply({ ok: true });
      case 'probe': this.probe(message.pin); return reply({ ok: true });
      case 'edges': return reply({ ok: true, ...this.edges(message.pin) });
      case 'time': return reply({ ok: true, ns: this.pico.nanos, ms: this.pico.nanos / 1e6, cycles: this.pico.cycle, mode: this.mode });
      case 'pico': return reply({ ok: true, ...this.picoStats() });
      case 'mode': this.setMode(message.mode); return reply({ ok: true, mode: this.mode });
      case 'run': {
        const ms = message.ms;
        if (typeof ms !== 'number' || !(ms >= 0)) throw new BoardError(`run takes "ms": a number of emulated milliseconds, not ${JSON.stringify(ms)}`);
        this.runs.push({ until: this.pico.nanos + ms * 1e6, reply });
        return this.kick();
      }
      case 'save_flash': {
        if (typeof message.path !== 'string') throw new BoardError('save_flash takes "path": the file to write the 2 MiB flash image to');
        this.pico.saveFlash(message.path);
        return reply({ ok: true, path: message.path });
      }
      case 'quit': reply({ ok: true }); return this.quit();
      default:
        throw new BoardError(`unknown command ${JSON.stringify(message.cmd)} (attach, cells, cell, hx711, unplug, plug, press, release, strip, stats, reset_stats, probe, edges, time, pico, mode, run, save_flash, quit)`);
    }
  }

  _pin(pin) {
    return typeof pin === 'number' ? number(pin, 'pin', { min: 0, max: 29, integer: true }) : gpio(pin, 'pin');
  }

  // record every edge on a wire (any GPIO, whatever drives it)
  probe(pin) {
    const index = this._pin(pin);
    if (!this.probes[index]) {
      const probe = new Probe(index);
      this.probes[index] = probe;
      this.pico.pads.watch(index, (level, t) => probe.edge(level, t));
    }
  }

  edges(pin) {
    const index = this._pin(pin);
    const probe = this.probes[index];
    if (!probe) throw new BoardError(`GP${index} has no probe: send {"cmd": "probe", "pin": ${index}} first`);
    return probe.take();
  }

  picoStats() {
    const s = this.pico.stats();
    const wall = (performance.now() - this.started) / 1000;
    return {
      ...s, wall_s: wall, connected: this.pico.connected, stopped: this.pico.stopped,
      busy_cycles_per_wall_s: this.slices.busyWall ? this.slices.busyCycles / (this.slices.busyWall / 1000) : null,
      flash: this.pico.flash.stats,
    };
  }

  quit() {
    if (this.options.flashOut) this.pico.saveFlash(this.options.flashOut);
    process.exit(0);
  }
}

async function main() {
  let options, server;
  try {
    options = parseArgs(process.argv.slice(2));
    server = new Server(options);
  } catch (error) {
    process.stderr.write(`emulated pico: ${error.message}\n`);
    process.exit(2);
  }
  server.started = performance.now();
  const port = await server.listen();
  const write = (object) => process.stdout.write(JSON.stringify(object) + '\n');
  write({ ready: true, serial_port: port, serial_url: `socket://127.0.0.1:${port}`, mode: server.mode, uart: !!options.uart });
  process.on('SIGTERM', () => server.quit());
  process.on('SIGINT', () => server.quit());
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return write({ ok: false, error: `not a JSON line: ${line.slice(0, 80)}` });
    }
    const reply = (object) => write(message.id === undefined ? object : { id: message.id, ...object });
    try {
      server.command(message, reply);
    } catch (error) {
      if (!(error instanceof BoardError)) process.stderr.write(`${error.stack}\n`);
      reply({ ok: false, error: error.message });
    }
  });
  lines.on('close', () => server.quit());       // the parent has gone
  server.kick();
}

main();
