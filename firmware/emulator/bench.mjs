#!/usr/bin/env node
// How fast the emulated Pico runs: boot, and emulated clk_sys cycles per wall second with the
// CPU busy or asleep, with PIO state machines running, stalled (WAIT) or spinning (a polling
// loop), and with a 2 x 6 board's 14 HX711s converting. Medians of --repeat runs (the machine
// is shared and noisy); README.md quotes them.
//
//   node firmware/emulator/bench.mjs [--kit DIR] [--repeat 3] [--json] [--only NAME]

import { Pico } from './pico.mjs';
import { Board } from './board.mjs';

const BUSY = 'def f():\n    for i in range(60000):\n        pass\nf()\n';
const SLEEP = 'import time\ntime.sleep_ms(3000)\n';
const PIO_SETUP = {
  running: `import rp2
from machine import Pin
@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)
def square():
    set(pins, 1)[4]
    set(pins, 0)[4]
sm = rp2.StateMachine(0, square, freq=2000000, set_base=Pin(17))
sm.active(1)
`,
  stalled: `import rp2
from machine import Pin
@rp2.asm_pio()
def stalled():
    wait(1, pin, 0)
    push()
sm = rp2.StateMachine(0, stalled, freq=10000000, in_base=Pin(18))
sm.active(1)
`,
  spinning: `import rp2
from machine import Pin
@rp2.asm_pio()
def spinning():
    label("watch")
    mov(isr, null)
    in_(pins, 14)
    mov(x, isr)
    jmp(x_not_y, "changed")
    jmp("watch")
    label("changed")
    mov(y, x)
    push(noblock)
    jmp("watch")
sm = rp2.StateMachine(0, spinning, freq=10000000, in_base=Pin(3))
sm.active(1)
`,
};
const BOARD_2X6 = {
  name: 'pico-bridge-2x6 (sensors only)',
  sensors: { kind: 'load-cell', clock_pin: 'GP2', data_pins: Array.from({ length: 14 }, (_, i) => `GP${3 + i}`) },
};

const SCENARIOS = [
  { name: 'busy, no PIO', code: BUSY },
  { name: 'busy, PIO running (2 MHz square wave)', setup: PIO_SETUP.running, code: BUSY },
  { name: 'busy, PIO stalled on WAIT', setup: PIO_SETUP.stalled, code: BUSY },
  { name: 'busy, no PIO, no XIP cache modelled', code: BUSY, xip: false },
  { name: 'asleep, no PIO', code: SLEEP },
  { name: 'asleep, PIO running (2 MHz square wave)', setup: PIO_SETUP.running, code: SLEEP },
  { name: 'asleep, PIO stalled on WAIT', setup: PIO_SETUP.stalled, code: SLEEP },
  { name: 'asleep, 14 HX711s, PIO polling their DOUTs at 10 MHz', board: BOARD_2X6, setup: PIO_SETUP.spinning, code: SLEEP },
  { name: 'asleep, 14 HX711s, the same with shortcuts off', board: BOARD_2X6, setup: PIO_SETUP.spinning, code: SLEEP, shortcuts: false },
];

function parse(argv) {
  const o = { kit: process.env.LAYLI_PICO_KIT, repeat: 3, json: false, only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--kit') o.kit = argv[++i];
    else if (argv[i] === '--repeat') o.repeat = Number(argv[++i]);
    else if (argv[i] === '--json') o.json = true;
    else if (argv[i] === '--only') o.only = argv[++i];
    else throw new Error(`unknown option ${argv[i]} (--kit DIR, --repeat N, --json, --only NAME)`);
  }
  return o;
}

function boot(options, scenario = {}) {
  const pico = new Pico({ kit: options.kit, pioShortcuts: scenario.shortcuts ?? true,
                         xipCache: scenario.xip ?? true });
  if (scenario.board) new Board(pico, scenario.board);
  let out = '';
  pico.onSerial = (bytes) => { out += Buffer.from(bytes).toString('latin1'); };
  pico.boot();
  const wall = performance.now();
  while (!pico.connected) pico.run(pico.nanos + 1e6, 50);
  pico.send('\r\n');
  while (!out.includes('>>> ')) pico.run(pico.nanos + 1e5, 50);
  const session = {
    pico,
    bootWall: (performance.now() - wall) / 1000,
    bootEmulated: pico.nanos / 1e9,
    // run code through paste mode; the figures between its two markers
    run(code) {
      out = '';
      const marked = `print('@@'+'A')\n${code}print('@@'+'B')\n`;
      pico.send('\x05');
      pico.send(marked.replace(/\n/g, '\r'));
      pico.send('\x04');
      let c0 = 0, i0 = 0, w0 = 0;
      while (!out.includes('@@A\r\n')) pico.run(pico.nanos + 2e4, 5);
      c0 = pico.cycle; i0 = pico.idleCycles; w0 = performance.now();
      while (!out.includes('@@B\r\n')) pico.run(pico.nanos + 2e4, 5);
      const wall = (performance.now() - w0) / 1000;
      if (out.includes('Traceback')) throw new Error(out);
      const cycles = pico.cycle - c0;
      return { wall, cycles, perWallSecond: cycles / wall, idleShare: (pico.idleCycles - i0) / cycles };
    },
  };
  return session;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function main() {
  const options = parse(process.argv.slice(2));
  const chosen = SCENARIOS.filter((scenario) => !options.only || scenario.name.includes(options.only));
  const runs = chosen.map(() => []);
  const boots = [];
  for (let k = 0; k < options.repeat; k++) {        // round robin: each sees the same load
    chosen.forEach((scenario, i) => {
      const session = boot(options, scenario);
      boots.push(session);
      if (scenario.setup) session.run(scenario.setup);
      runs[i].push(session.run(scenario.code));
    });
  }
  const results = chosen.map((scenario, i) => {
    const rate = median(runs[i].map((r) => r.perWallSecond));
    const result = {
      scenario: scenario.name, mcycles_per_wall_s: rate / 1e6, realtime: rate / 125e6,
      idle_share: median(runs[i].map((r) => r.idleShare)),
      runs: runs[i].map((r) => Math.round(r.perWallSecond / 1e5) / 10),
    };
    if (!options.json) {
      console.log(`${scenario.name.padEnd(58)} ${result.mcycles_per_wall_s.toFixed(1).padStart(9)} Mcycles/wall s` +
                  ` (${result.realtime.toFixed(2)}x real time; idle ${(100 * result.idle_share).toFixed(0)}%; runs ${result.runs.join(', ')})`);
    }
    return result;
  });
  const boot_ = { emulated_s: median(boots.map((b) => b.bootEmulated)), wall_s: median(boots.map((b) => b.bootWall)) };
  if (options.json) console.log(JSON.stringify({ boot: boot_, results }, null, 1));
  else console.log(`boot to >>>: ${boot_.emulated_s.toFixed(3)} s emulated, ${boot_.wall_s.toFixed(2)} s wall (median of ${boots.length})`);
}

main();
