"""Hardware stand-ins shared by the driver and runner tests: a NeoPixel buffer that records
what it would send, and a pty that plays a USB serial device which can be unplugged."""

import os
import select
import time
import tty

from adafruit_pixelbuf import PixelBuf


class RecordingPixelBuf(PixelBuf):
    """A PixelBuf whose transfers are kept instead of clocked out to a strip."""

    def __init__(self, count, byteorder):
        super().__init__(count, byteorder=byteorder)
        self.sent = []

    def _transmit(self, buffer):
        self.sent.append(bytes(buffer))


class PtyDevice:
    """A USB serial device stand-in: a pty whose far end is the Pico's, reached through the
    link name `path` (a symlink, as /dev/serial/by-id/... is). `unplug()` closes the pty and
    removes the name, as pulling the cable does; `plug()` makes a new pty under the same name."""

    def __init__(self, path):
        self.path = path
        self.plug()

    def plug(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)                  # no echo before the link opens it
        self.tty = os.ttyname(slave)
        os.close(slave)                    # the pty lives on while its master is open
        os.symlink(self.tty, self.path + ".new")
        os.replace(self.path + ".new", self.path)

    def unplug(self):
        os.close(self.master)
        os.unlink(self.path)

    def send(self, data):
        os.write(self.master, data)

    def receive(self, size, timeout=2.0):
        data = b""
        end = time.monotonic() + timeout
        while len(data) < size and select.select([self.master], [], [],
                                                 max(0.0, end - time.monotonic()))[0]:
            data += os.read(self.master, size - len(data))
        return data


class FakeMcpBus:
    """An I2C bus with MCP23017s on it (register model, IOCON.BANK = 0, sequential addressing),
    as adafruit_bus_device talks to it: `inputs[address]` is the 16 input levels a test sets
    (bit 0 GPA0 ... bit 15 GPB7); a read of GPIOA gives them, pulled up where GPPU says and the
    input left floating."""

    GPIOA, IODIRA, GPPUA = 0x12, 0x00, 0x0C

    def __init__(self, addresses):
        self.registers = {address: bytearray(0x16) for address in addresses}
        self.inputs = {address: 0 for address in addresses}
        self.floating = {address: 0xFFFF for address in addresses}   # bits nothing drives
        self.pointer = {address: 0 for address in addresses}

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def _chip(self, address):
        if address not in self.registers:
            raise OSError(121, "Remote I/O error")          # no ACK, as Linux says
        return self.registers[address]

    def writeto(self, address, buffer, *, start=0, end=None):
        registers = self._chip(address)
        data = bytes(buffer[start:end])
        if not data:
            return
        self.pointer[address] = data[0]
        for offset, value in enumerate(data[1:]):
            registers[(data[0] + offset) % len(registers)] = value

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        registers = self._chip(address)
        end = len(buffer) if end is None else end
        for k in range(start, end):
            register = (self.pointer[address] + k - start) % len(registers)
            if register in (self.GPIOA, self.GPIOA + 1):
                pulled = registers[self.GPPUA] | registers[self.GPPUA + 1] << 8
                levels = self.inputs[address] & ~self.floating[address] | \
                    pulled & self.floating[address]
                buffer[k] = levels >> 8 * (register - self.GPIOA) & 0xFF
            else:
                buffer[k] = registers[register]

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)
