"""A register-level model of Microchip's MCP23017 on an I2C bus, written from its data sheet, to
test the pit expanders' driver through the real adafruit_mcp230xx library (a test double).

    chip = MCP23017(0x20)
    bus = I2CBus(chip)                   # what board.I2C() gives: busio.I2C's methods
    chip.drive("GPA3", 0)                # a beam receiver's open collector sinks GPA3
    chip.drive("GPA3", None)             # ... and lets go: the pull-up, if on, holds it high
    chip.int_a                           # 0, 1, or None (released: an open drain, inactive)
    chip.violations                      # what the data sheet forbids that was done to it

Source: MCP23017/MCP23S17 data sheet, Microchip DS20001952C (2016) and DS20001952D (2022);
"DS 3.5.9" is a section of it, "D070" a line of its DC characteristics (DS 1.1).

Modelled:

- the register map with IOCON.BANK = 0 (DS Table 3-5), and the values at power-on reset:
  IODIR 0xFF, every other register 0x00 (DS Table 3-5's POR/RST column); IOCON at 0x0A and
  0x0B is one register (DS 3.5.6);
- the I2C protocol: a write's first byte sets the address pointer, the bytes after it are
  written from there; a read goes on from the pointer; with SEQOP = 0 the pointer steps after
  every byte and rolls over to 0x00 after 0x15 (DS 3.2.2.3), with SEQOP = 1 it toggles between
  the A and B registers of a pair (DS 3.2.1); a missing device does not acknowledge, which
  Linux reports as EREMOTEIO;
- the pins: an output drives its OLAT bit (writing GPIO writes OLAT, DS 3.5.10-3.5.11); an
  input reads what drives it, else high when its pull-up is on (GPPU, DS 3.5.7), else nothing
  holds it (an undefined level, D031/D041, noted in `undefined`); IPOL inverts an input's
  GPIO bit (DS 3.5.2);
- interrupt-on-change (DS 3.6.4, 3.6.5): only an input with GPINTEN set can interrupt; with
  INTCON = 0 a change from the pin's previous level does, with INTCON = 1 a level that differs
  from DEFVAL; the first interrupt on a port sets INTF to the pins that caused it and copies
  the port into INTCAP, and later changes cause nothing until the interrupt is cleared by a
  read of the port's GPIO or INTCAP; then the previous level is the level at that moment, and
  a DEFVAL condition that still holds interrupts again at once;
- INTA and INTB (DS 3.5.6, IOCON): each its port's interrupt, or both the OR of the two with
  MIRROR; push-pull, active low or (INTPOL) active high, or open drain (ODR: pulled low when
  active, released when not; INTPOL ignored);
- GPA7 and GPB7 are output only (DS20001952D, page 1): configuring one as an input, and any
  I2C read while one is an input (Microchip's knowledge-base article: SDA can be corrupted
  then), are recorded in `violations`.

Not modelled: IOCON.BANK = 1 (a write that sets it is recorded in `violations`), HAEN and
DISSLW (no effect on an I2C bus this slow), timing, and the SPI of the MCP23S17. Where the data
sheet leaves a thing open the model says what it assumes: INTCON = 0's "previous level" starts
as the pins' levels at power-on and is renewed at each interrupt and each clearing.
"""

import errno

IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON = 0x00, 0x02, 0x04, 0x06, 0x08, 0x0A
GPPU, INTF, INTCAP, GPIO, OLAT = 0x0C, 0x0E, 0x10, 0x12, 0x14
LAST = 0x15                          # OLATB: the pointer rolls over to 0x00 after it
NAMES = ("IODIR", "IPOL", "GPINTEN", "DEFVAL", "INTCON", "IOCON", "GPPU", "INTF", "INTCAP",
         "GPIO", "OLAT")
READ_ONLY = (INTF, INTF + 1, INTCAP, INTCAP + 1)
BANK, MIRROR, SEQOP, ODR, INTPOL = 0x80, 0x40, 0x20, 0x04, 0x02
OUTPUT_ONLY = (7, 15)                # GPA7, GPB7


def register_name(address):
    """0x13 -> "GPIOB"."""
    base = address & ~1
    return "%s%s" % (NAMES[base // 2], "" if base == IOCON else "AB"[address & 1])


def pin_number(pin):
    """"GPB2" -> 10; 10 -> 10."""
    if isinstance(pin, int):
        return pin
    return {"GPA": 0, "GPB": 8}[pin[:3]] + int(pin[3:])


class MCP23017:
    """One chip at I2C `address` (0x20..0x27, A2-A0), just powered on."""

    def __init__(self, address=0x20):
        self.address = address
        self.driven = [None] * 16        # what outside drives on each pin: 0, 1 or None
        self.violations = []             # what the data sheet forbids, in words
        self.undefined = set()           # inputs read while nothing held them
        self.listeners = []              # called as f(chip) when INTA or INTB changes
        self.power_on_reset()

    def power_on_reset(self):
        """Every register to its POR value (DS Table 3-5), as a dip in the supply would."""
        self.registers = bytearray(LAST + 1)
        self.registers[IODIR] = self.registers[IODIR + 1] = 0xFF
        self.pointer = 0
        self.pending = [False, False]    # an uncleared interrupt on port A, port B
        self.previous = [self._pins(0), self._pins(1)]
        self._outputs = None
        self._evaluate()

    def _violate(self, text):
        if text not in self.violations:
            self.violations.append(text)

    # -- the pins

    def drive(self, pin, level):
        """Outside drives `pin` ("GPA3" or 3) to `level` 0 or 1, or lets go of it (None)."""
        self.driven[pin_number(pin)] = level
        self._evaluate()

    def level(self, pin):
        """The level on `pin` now (None: nothing holds it)."""
        number = pin_number(pin)
        port, bit = divmod(number, 8)
        if not self.registers[IODIR + port] >> bit & 1:
            level = self.registers[OLAT + port] >> bit & 1
            if self.driven[number] is not None and self.driven[number] != level:
                self._violate("GP%s%d: an output driving %d against a source driving %d" % (
                    "AB"[port], bit, level, self.driven[number]))
            return level
        if self.driven[number] is not None:
            return self.driven[number]
        if self.registers[GPPU + port] >> bit & 1:
            return 1
        return None

    def _pins(self, port):
        """The port's pin levels as a byte (an undefined input reads 0 here)."""
        return sum((self.level(8 * port + bit) or 0) << bit for bit in range(8))

    def _gpio(self, port):
        """What GPIO reads: the pins, inputs inverted where IPOL says (DS 3.5.2)."""
        value = 0
        inputs = self.registers[IODIR + port]
        for bit in range(8):
            level = self.level(8 * port + bit)
            if level is None:
                self.undefined.add("GP%s%d" % ("AB"[port], bit))
                level = 0
            value |= level << bit
        return value ^ (self.registers[IPOL + port] & inputs)

    # -- interrupts

    def _evaluate(self):
        for port in (0, 1):
            if self.pending[port]:
                continue             # later changes cause nothing until cleared (DS 3.6.4)
            registers = self.registers
            enabled = registers[GPINTEN + port] & registers[IODIR + port]
            levels = self._pins(port)
            reference = (registers[DEFVAL + port] & registers[INTCON + port]) | (
                self.previous[port] & ~registers[INTCON + port])
            cause = (levels ^ reference) & enabled & 0xFF
            if cause:
                self.pending[port] = True
                registers[INTF + port] = cause
                registers[INTCAP + port] = self._gpio(port)
                self.previous[port] = levels
        outputs = (self.int_a, self.int_b)
        if outputs != self._outputs:
            self._outputs = outputs
            for listener in self.listeners:
                listener(self)

    def _clear(self, port):
        """A read of the port's GPIO or INTCAP (DS 3.6.4)."""
        self.pending[port] = False
        self.registers[INTF + port] = 0
        self.previous[port] = self._pins(port)
        self._evaluate()

    def _output(self, active):
        iocon = self.registers[IOCON]
        if iocon & ODR:
            return 0 if active else None
        return int(active) if iocon & INTPOL else int(not active)

    @property
    def int_a(self):
        """INTA's level: 0 or 1, or None for an open drain that is not pulling."""
        mirror = self.registers[IOCON] & MIRROR
        return self._output(self.pending[0] or bool(mirror and self.pending[1]))

    @property
    def int_b(self):
        mirror = self.registers[IOCON] & MIRROR
        return self._output(self.pending[1] or bool(mirror and self.pending[0]))

    # -- the I2C side

    def _step(self):
        if self.registers[IOCON] & SEQOP:
            self.pointer ^= 1                     # toggles within the A/B pair (DS 3.2.1)
        else:
            self.pointer = 0 if self.pointer >= LAST else self.pointer + 1   # DS 3.2.2.3

    def _check_output_only(self, what):
        for number in OUTPUT_ONLY:
            port, bit = divmod(number, 8)
            if self.registers[IODIR + port] >> bit & 1:
                self._violate("%s while GP%s7 is an input (it is output only: DS20001952D)"
                              % (what, "AB"[port]))

    def i2c_write(self, data):
        """One write transfer's bytes after the address: the register, then its data."""
        if not data:
            return                                # a probe: acknowledged, nothing set
        self.pointer = data[0] if data[0] <= LAST else 0
        for value in data[1:]:
            self._write_register(self.pointer, value)
            self._step()
        self._evaluate()

    def _write_register(self, address, value):
        if address in READ_ONLY:
            return
        if address in (IOCON, IOCON + 1):
            if value & BANK:
                self._violate("IOCON.BANK = 1: the model has only the BANK = 0 map")
            self.registers[IOCON] = self.registers[IOCON + 1] = value & 0xFE   # bit 0: U-0
            return
        if address & ~1 == GPIO:
            address += OLAT - GPIO                # writing GPIO writes OLAT (DS 3.5.10)
        self.registers[address] = value
        if address & ~1 == IODIR and value & 0x80:
            self._violate("%s = 0x%02X makes GP%s7 an input (it is output only: DS20001952D)"
                          % (register_name(address), value, "AB"[address & 1]))

    def i2c_read(self, count):
        """One read transfer of `count` bytes, from the pointer on."""
        self._check_output_only("an I2C read")
        out = bytearray()
        for _ in range(count):
            address = self.pointer
            if address & ~1 == GPIO:
                out.append(self._gpio(address & 1))
                self._clear(address & 1)
            elif address & ~1 == INTCAP:
                out.append(self.registers[address])
                self._clear(address & 1)
            else:
                out.append(self.registers[address])
            self._step()
        return bytes(out)

    def register(self, name):
        """A register's value by name ("IODIRA", "IOCON"): what a logic analyser would read,
        without the side effects of a read."""
        for address in range(LAST + 1):
            if register_name(address) == name:
                return self.registers[address]
        raise KeyError(name)

    def register16(self, name):
        """The A and B registers of `name` ("IODIR") as 16 bits, A the low byte."""
        return self.register(name + "A") | self.register(name + "B") << 8


class I2CBus:
    """An I2C bus with `chips` on it, with the methods of busio.I2C that adafruit_bus_device
    uses (try_lock, unlock, writeto, readfrom_into, writeto_then_readfrom) and scan. Every
    transfer is logged in `transfers` as (address, "write" or "read", first register, bytes);
    a transfer without the lock is refused, as CircuitPython refuses it."""

    def __init__(self, *chips):
        self.chips = {chip.address: chip for chip in chips}
        self.locked = False
        self.transfers = []

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def _chip(self, address):
        if not self.locked:
            raise RuntimeError("Function requires lock")
        if address not in self.chips:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")   # no ACK, as Linux says
        return self.chips[address]

    def scan(self):
        return sorted(self.chips)

    def writeto(self, address, buffer, *, start=0, end=None):
        chip = self._chip(address)
        data = bytes(buffer[start:end])
        chip.i2c_write(data)
        self.transfers.append((address, "write", data[0] if data else None, data[1:]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        chip = self._chip(address)
        end = len(buffer) if end is None else end
        first = chip.pointer
        data = chip.i2c_read(end - start)
        buffer[start:end] = data
        self.transfers.append((address, "read", first, data))

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0,
                              out_end=None, in_start=0, in_end=None, stop=False):
        self.writeto(address, buffer_out, start=out_start, end=out_end)
        self.readfrom_into(address, buffer_in, start=in_start, end=in_end)

    def reads(self, address=None, register=None):
        """The read transfers (of one chip, starting at one register: "GPIOA")."""
        return [t for t in self.transfers if t[1] == "read" and (
            address is None or t[0] == address) and (
            register is None or register_name(t[2]) == register)]


def wire_int_a(chip, pin):
    """Join `chip`'s INTA to `pin`, a gpiozero MockPin standing for the Pi's GPIO, as a wire
    does: the pin follows INTA, and a released open drain leaves the line to the pin's own
    pull-up (high if gpiozero set one, else where it was)."""
    def follow(chip):
        level = chip.int_a
        if level is None and pin.pull == "up":
            level = 1
        if level == 1:
            pin.drive_high()
        elif level == 0:
            pin.drive_low()
    chip.listeners.append(follow)
    follow(chip)
