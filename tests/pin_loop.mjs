// A PIO program run on the emulated RP2040 with no CPU: the state machine set up through its
// registers as MicroPython's rp2.StateMachine would, the board's parts on its pins, its RX FIFO
// read every microsecond (as the firmware's DMA would, a little later), for a fixed emulated
// time. Everything is decided by the emulated clock alone, so two runs with the PIO lockstep's
// shortcuts on and off can be compared word for word (tests/test_emulated_pico.py).
//
//   node tests/pin_loop.mjs < job.json
//
// job: {kit, board (a profile as JSON), values (one per cell), words, execctrl, shiftctrl,
//       freq, set_base, set_count, sideset_base, sideset_count, in_base, ms, shortcuts}
// prints: {pushes: [[ns, word], ...], hx711: [stats...], chains, skipped, late, instructions}

import { Pico } from '../firmware/emulator/pico.mjs';
import { Board } from '../firmware/emulator/board.mjs';

const PIO0 = 0x50200000;
const IO_BANK0 = 0x40014000;
const FUNC_PIO0 = 6;
const CTRL = 0x000;
const FSTAT = 0x004;
const RXF0 = 0x020;
const INSTR_MEM0 = 0x048;
const SM0_CLKDIV = 0x0c8;
const SM0_EXECCTRL = 0x0cc;
const SM0_SHIFTCTRL = 0x0d0;
const SM0_PINCTRL = 0x0dc;
const SM0_INSTR = 0x0d8;
const RXEMPTY0 = 1 << 8;

function pinctrl({ set_base = 0, set_count = 0, sideset_base = 0, sideset_count = 0, in_base = 0 }) {
  return (sideset_count << 29) | (set_count << 26) | (in_base << 15) | (sideset_base << 10) | (set_base << 5);
}

function main(job) {
  const pico = new Pico({ kit: job.kit, pioShortcuts: job.shortcuts });
  const board = new Board(pico, job.board);
  board.setCells(job.values);
  pico.pio.advance(pico.cycle + 125);       // 1 us on: the parts settled (SH/LD low since 0)
  const pio = pico.mcu.pio[0];
  const write = (offset, value) => pio.writeUint32(offset, value >>> 0);
  job.words.forEach((word, i) => write(INSTR_MEM0 + 4 * i, word));
  const sideset = job.sideset_count + ((job.execctrl >>> 30) & 1);
  // the pins: PIO0's, outputs at their initial levels (all low but SH/LD, high: shift mode)
  const outputs = [];
  for (let i = 0; i < job.set_count; i++) outputs.push(job.set_base + i);
  for (let i = 0; i < job.sideset_count; i++) outputs.push(job.sideset_base + i);
  for (const pin of [...outputs, job.in_base]) pico.mcu.writeUint32(IO_BANK0 + 8 * pin + 4, FUNC_PIO0);
  for (const pin of outputs) {
    write(SM0_PINCTRL, pinctrl({ set_base: pin, set_count: 1 }));
    write(SM0_INSTR, 0xe000 | (job.high.includes(pin) ? 1 : 0));   // set pins, level
    write(SM0_INSTR, 0xe000 | (4 << 5) | 1);                // set pindirs, 1
  }
  write(SM0_CLKDIV, Math.round(125e6 / job.freq) << 16);
  write(SM0_EXECCTRL, job.execctrl);
  write(SM0_SHIFTCTRL, job.shiftctrl);
  write(SM0_PINCTRL, pinctrl({ ...job, sideset_count: sideset }));
  write(CTRL, 1);                                           // SM0 on

  const pushes = [];
  const end = pico.cycle + Math.round(job.ms * 125e3);
  for (let c = pico.cycle + 125; c <= end; c += 125) {
    pico.pio.advance(c);
    while (!(pio.readUint32(FSTAT) & RXEMPTY0)) pushes.push([Math.round(pico.nanos), pio.readUint32(RXF0) >>> 0]);
  }
  const stats = board.stats();
  const machines = pico.pio.machines;
  return {
    pushes,
    hx711: stats.hx711.map(({ conversions, reads, overwritten, corrupted, errors }) => ({ conversions, reads, overwritten, corrupted, errors })),
    chains: stats.chains,
    skipped: machines.reduce((sum, m) => sum + m.skipped, 0),
    instructions: machines.reduce((sum, m) => sum + m.instructions, 0),
    late: pico.pio.lateResumes,
  };
}

let input = '';
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => { process.stdout.write(JSON.stringify(main(JSON.parse(input))) + '\n'); });
