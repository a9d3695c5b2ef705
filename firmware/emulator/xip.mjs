// The RP2040's XIP cache in front of the QSPI flash, which rp2040js does not model: there every
// fetch from flash costs what a fetch from SRAM costs, so MicroPython (its VM, runtime and type
// tables all run from flash in the 1.27 RPI_PICO build) runs faster than on a real Pico.
//
// What the RP2040 datasheet (section 2.6.3, "XIP") says of the cache, and what is modelled:
// 16 KiB, two-way set-associative, 8-byte lines (1,024 sets), looked up by every access to the
// caching aliases 0x10000000 (allocating) and 0x11000000 (not allocating); 0x12000000 and
// 0x13000000 go to the flash every time. A hit costs nothing more than rp2040js' count; a miss
// stalls the core while the SSI reads the line from the flash. Which way a miss replaces is not
// documented: the least recently used one here. A write of 1 to XIP_CTRL.FLUSH (0x14000004,
// as the SDK's flash_flush_cache does after programming the flash) empties it.
//
// The miss's cost, in clk_sys cycles: the boot2 that MicroPython's RPI_PICO build links
// (pico-sdk boot2_w25q080.S) leaves the SSI in continuous quad read (EBh without the
// instruction byte) at SCK = clk_sys / 2: 8 SCK for the address and mode bits, 4 wait cycles
// and 16 SCK for the line's 8 bytes, 28 SCK = 56 clk_sys, and a few more for the SSI to
// assert chip select and hand the data over: MISS_CYCLES. Only the core's accesses are
// counted (instruction fetches and loads); the DMA's reads of flash are not slowed.

const XIP_CTRL_FLUSH = 0x14000004;
const LINE_SHIFT = 3;               // 8-byte lines
const SETS = 1024;                  // 16 KiB / 8 bytes / 2 ways
export const MISS_CYCLES = 60;

export function installXipCache(mcu, { missCycles = MISS_CYCLES } = {}) {
  const core = mcu.core;
  // per set: the line number held by each way (-1: none), and which way was used last
  const way0 = new Int32Array(SETS).fill(-1);
  const way1 = new Int32Array(SETS).fill(-1);
  const last = new Uint8Array(SETS);
  const stats = { accesses: 0, misses: 0, flushes: 0, missCycles };
  let stall = 0;
  let recent = -1;          // the line last looked up through the caching alias: a hit again
                            // (most fetches: the next instruction in the same line)

  // the stall of one access at `address`, in the flash's aliases (0x10000000 to 0x13ffffff)
  function access(address) {
    stats.accesses++;
    if (address >= 0x12000000) {            // the uncached aliases: the flash every time
      stats.misses++;
      stall += missCycles;
      return;
    }
    const line = (address & 0x00ffffff) >>> LINE_SHIFT;
    if (line === recent) return;
    const set = line & (SETS - 1);
    if (way0[set] === line) { last[set] = 0; recent = line; return; }
    if (way1[set] === line) { last[set] = 1; recent = line; return; }
    stats.misses++;
    stall += missCycles;
    if (address >= 0x11000000) return;      // not allocating
    if (last[set] === 0) { way1[set] = line; last[set] = 1; } else { way0[set] = line; last[set] = 0; }
    recent = line;
  }

  for (const name of ['readUint32', 'readUint16', 'readUint8']) {
    const read = core[name].bind(core);
    core[name] = (address) => {
      const at = address >>> 0;
      if (at >= 0x10000000 && at < 0x14000000) access(at);
      return read(address);
    };
  }
  const write = core.writeUint32.bind(core);
  core.writeUint32 = (address, value) => {
    if ((address >>> 0) === XIP_CTRL_FLUSH && (value & 1)) {
      way0.fill(-1); way1.fill(-1);
      recent = -1;
      stats.flushes++;
    }
    write(address, value);
  };
  const execute = core.executeInstruction.bind(core);
  core.executeInstruction = () => {
    stall = 0;
    const cycles = execute();
    if (stall === 0) return cycles;
    core.cycles += stall;
    return cycles + stall;
  };
  return stats;
}
