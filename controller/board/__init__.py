"""The board on a host (a Pi, or a laptop's simulated board): `runner.Runner`, the loop of
`layli run` around the portable `controller.session.loop.BoardLoop`; `runner.BoardIO`, what
each board adapter (controller.drivers.pico, controller.drivers.direct,
simulator.board_io) gives it; `open_session`, which resumes a board's journal; and `view`,
the board as every page shows it and the words it and the log say events in (host-only)."""
