// An SPI NOR flash behind the RP2040's SSI, so that MicroPython can erase and program its own
// filesystem (littlefs on rp2.Flash()) on the emulated Pico. Grown from run/flash-model.mjs of
// the team's emulated-Pico kit (LAYLI_PICO_KIT), which found the gap.
//
// rp2040js 1.4.1 has only a stub SSI (status always "ready", no data path) and leaves IO_QSPI
// unimplemented, so the boot ROM's flash_range_erase / flash_range_program do nothing and
// MicroPython cannot format its filesystem (OSError 28 in _boot.py).
//
// The model is a 2 MiB W25Q16JV (Winbond W25Q16JV datasheet, rev. H): the boot ROM and the SDK
// frame each direct-mode command by forcing QSPI_SS low and high through IO_QSPI's
// GPIO_QSPI_SS_CTRL.OUTOVER; each byte written to SSI DR0 while SS is forced low is one byte
// on the bus and puts one byte in the RX FIFO. XIP reads go straight to rp2040js' flash array
// (no XIP cache is modelled, so a programmed page is visible at 0x10000000 at once).
// Busy times are the datasheet's typical ones (page program 0.4 ms, 4 KB sector erase 45 ms,
// 32 KB 120 ms, 64 KB 150 ms, chip 5 s) unless `timing: false`.

const SSI_BASE = 0x18000000;
const IO_QSPI_BASE = 0x40018000;
const SSI_SR = 0x28, SSI_TXFLR = 0x20, SSI_RXFLR = 0x24, SSI_DR0 = 0x60;
const SR_TFNF = 0x02, SR_TFE = 0x04, SR_RFNE = 0x08;
const IO_QSPI_SS_CTRL = 0x0c;
const TYPICAL_NS = { page: 400e3, sector: 45e6, block32: 120e6, block64: 150e6, chip: 5e9 };
const NO_WAIT = { page: 0, sector: 0, block32: 0, block64: 0, chip: 0 };
const JEDEC_ID = [0xef, 0x40, 0x15];                             // Winbond, W25Q16
const UNIQUE_ID = [0xe6, 0x60, 0x58, 0x38, 0x83, 0x4a, 0x2f, 0x2c];

export function installFlash(mcu, { timing = true } = {}) {
  const flash = mcu.flash;
  const clock = mcu.clock;
  const ssi = mcu.findPeripheral(SSI_BASE);
  const busyNs = timing ? TYPICAL_NS : NO_WAIT;
  const stats = { erases: 0, pages: 0, reads: 0, commands: 0 };
  const rx = [];
  let selected = false;     // SS forced low
  let forcedHigh = false;
  let command = [];
  let writeEnabled = false;
  let busyUntil = 0;

  const address = () => (command[1] << 16) | (command[2] << 8) | command[3];
  const busy = () => clock.nanos < busyUntil;

  function erase(start, size, ns) {
    start &= ~(size - 1);
    if (start < flash.length) flash.fill(0xff, start, Math.min(start + size, flash.length));
    stats.erases++;
    busyUntil = clock.nanos + ns;
  }

  // one byte on the bus; returns the byte the flash sends back
  function transfer(byte) {
    const n = command.length;
    command.push(byte);
    const op = command[0];
    if (n === 0) {
      stats.commands++;
      if (op === 0x06) writeEnabled = true;
      else if (op === 0x04) writeEnabled = false;
      return 0xff;
    }
    switch (op) {
      case 0x05: return (busy() ? 1 : 0) | (writeEnabled ? 2 : 0);   // status register 1
      case 0x35: return 0x02;                                        // status 2: QE set
      case 0x15: return 0x60;                                        // status 3
      case 0x9f: return JEDEC_ID[(n - 1) % 3];
      case 0x4b: return n >= 5 ? UNIQUE_ID[(n - 5) % 8] : 0xff;      // 4 dummy bytes first
      case 0x03:
        if (n >= 4) { stats.reads++; return flash[(address() + n - 4) % flash.length]; }
        return 0xff;
      case 0x0b:
        if (n >= 5) { stats.reads++; return flash[(address() + n - 5) % flash.length]; }
        return 0xff;
      case 0x02:                                  // page program: wraps within its 256 bytes
        if (n >= 4 && writeEnabled && !busy()) {
          const a = address();
          const at = (a & ~0xff) | ((a + n - 4) & 0xff);
          if (at < flash.length) flash[at] &= byte;
        }
        return 0xff;
      default:
        return 0xff;
    }
  }

  // SS released: a program or erase starts now
  function endCommand() {
    if (!command.length) return;
    const op = command[0];
    if (writeEnabled && !busy()) {
      if (op === 0x02 && command.length > 4) {
        stats.pages++;
        busyUntil = clock.nanos + busyNs.page;
        writeEnabled = false;
      } else if (op === 0x20 && command.length >= 4) {
        erase(address(), 4096, busyNs.sector); writeEnabled = false;
      } else if (op === 0x52 && command.length >= 4) {
        erase(address(), 32768, busyNs.block32); writeEnabled = false;
      } else if (op === 0xd8 && command.length >= 4) {
        erase(address(), 65536, busyNs.block64); writeEnabled = false;
      } else if (op === 0xc7 || op === 0x60) {
        erase(0, flash.length, busyNs.chip); writeEnabled = false;
      } else if (op === 0x01 || op === 0x31 || op === 0x11) {
        writeEnabled = false;
      }
    }
    command = [];
  }

  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  ssi.readUint32 = (offset) => {
    switch (offset) {
      case SSI_SR: return SR_TFE | SR_TFNF | (rx.length || !selected ? SR_RFNE : 0);
      case SSI_TXFLR: return 0;
      case SSI_RXFLR: return selected || forcedHigh ? Math.min(rx.length, 16) : 0;
      case SSI_DR0:
        if (selected || forcedHigh || rx.length) return rx.length ? rx.shift() : 0;
        return ssiRead(offset);
    }
    return ssiRead(offset);
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset === SSI_DR0 && selected) { rx.push(transfer(value & 0xff)); return; }
    if (offset === SSI_DR0 && forcedHigh) { rx.push(0xff); return; }
    ssiWrite(offset, value);
  };

  // IO_QSPI: keep its registers, and watch the SS override
  const registers = new Uint32Array(0x60 / 4);
  const ioQspi = mcu.findPeripheral(IO_QSPI_BASE);
  ioQspi.readUint32 = (offset) => (offset < 0x60 ? registers[offset >> 2] : 0);
  ioQspi.writeUint32 = (offset, value) => {
    if (offset >= 0x60) return;
    registers[offset >> 2] = value >>> 0;
    if (offset === IO_QSPI_SS_CTRL) {
      const override = (value >>> 8) & 3;     // OUTOVER: 0 normal, 1 invert, 2 low, 3 high
      const low = override === 2;
      if (selected && !low) endCommand();
      if (!selected && low) { command = []; rx.length = 0; }
      selected = low;
      forcedHigh = override === 3;
    }
  };
  return { stats };
}
