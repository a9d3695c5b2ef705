"""Standalone mode: the portable core on the fake Pico, fed by fake load cells under a board
the test moves seeds on."""

import json
import machine
import rig
from device import Device
from main import FAULT_COLOUR, start
from standalone import CALIBRATION, FRESH_US, JOURNAL, RENDER_MS, RENDER_WAITS, TUNES, \
    Standalone, StandaloneError, save_text
from controller.guide.pixels import render
from controller.rules import Game
from helpers import follow_leds, raises


def _standalone(folder=None):
    clock = rig.fresh_pico()
    config = rig.board_config("standalone")
    if folder is None:
        folder = rig.fresh_folder("standalone")
        save_text(folder + CALIBRATION, rig.calibration_json())
    device = Device(config, clock)
    app = Standalone(device, clock, config["game"], folder)
    return clock, device, app, folder


def _wire(pixels):
    """(r, g, b) tuples as the strip's GRB bytes."""
    out = bytearray()
    for r, g, b in pixels:
        out += bytes((g, r, b))
    return bytes(out)


def test_standalone_mode_drives_the_board_loop():
    """The Pico alone runs the board loop every board runs (controller.session.loop): its
    readings reach the session through it and its presses and sounds are the loop's."""
    from controller.session.loop import BoardLoop, Sound
    clock, device, app, folder = _standalone()
    assert isinstance(app.loop, BoardLoop) and app.loop.sensor is app.sensor
    assert app.loop.compact and app.loop.hint_level == "pico"
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    assert app.session.guide.board.places() == seeds.counts     # the loop's counts
    rig.press(clock, app, "hint")
    assert app.session.guide.hint == app.loop.hint_move(app.session.game)
    played = []
    device.buzzer.play = played.append
    app.loop.sound(Sound.MOVE_DONE)
    assert played == [TUNES[Sound.MOVE_DONE]]


def test_first_moves_of_a_game():
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    # the first move: a player who sees only the LEDs
    hand = 0
    for _ in range(40):
        if app.session.game.moves:
            break
        hand = follow_leds(app.session.frame, seeds.counts, hand, 0)
        rig.run(clock, app, 280, before=seeds.load)
    assert app.session.game.moves == [1], app.loop.recent
    assert seeds.counts == app.session.guide.board.places()
    # three more, a few steps of the script at a time
    while len(app.session.game.moves) < 4:
        rig.advance_board(app.session.guide, seeds.counts, 4)
        rig.run(clock, app, 280, before=seeds.load)
    rig.run(clock, app, 200, before=seeds.load)     # the last move's files written
    game = Game("layli-goobalay")
    for move in app.session.game.moves:
        game.push(move)
    assert app.session.game.pits == game.pits
    assert seeds.counts == app.session.guide.board.places()
    # the strip shows the guide's frame through the board's layout, in GRB
    shown = app._render_at - RENDER_MS
    assert rig.on_wire(device.strip) == _wire(render(app.session.frame, app.layout, shown))
    # the journal has every completed move, flushed; the chirp sounded
    moves = [json.loads(line)["move"] for line in open(folder + JOURNAL)
             if '"e": "move"' in line]
    assert moves == app.session.game.moves
    assert any(f == 1319 for f, duty in machine.PWM.instances[-1].history)
    assert app.sensing_errors == 0 and app.problem is None


def test_calibration_saved_with_the_drift_at_each_move():
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    drift = [0]

    def load():                     # the cells creep by a raw unit every 20 ms
        drift[0] += 1
        seeds.load()
        for cell in seeds.cells:
            cell.value += drift[0] // 5

    rig.run(clock, app, 400, before=load)
    while not app.session.game.moves:
        rig.advance_board(app.session.guide, seeds.counts, 3)
        rig.run(clock, app, 280, before=load)
    # written in a turn of the loop of its own, after the next move is prepared and the
    # journal's lines, between readings
    rig.run(clock, app, 200, before=load)
    saved = json.loads(open(folder + CALIBRATION).read())
    assert saved["tare"] != json.loads(rig.calibration_json())["tare"]
    assert all(saved["tare"][i] > rig.TARE[i] for i in range(14))


def test_a_calibration_the_heap_cannot_hold_waits_for_the_next_move():
    """A heap too cut up to open a file (MemoryError) when the calibration is due: the old
    calibration stays, the board says why, the game goes on, and the next move's end saves
    it. The journal's file is open from the start, its memory taken while it was free."""
    import standalone
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    before = open(folder + CALIBRATION).read()
    save = standalone.save_text

    def full(path, text):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    standalone.save_text = full
    try:
        while not app.session.game.moves:
            rig.advance_board(app.session.guide, seeds.counts, 4)
            rig.run(clock, app, 280, before=seeds.load)
        rig.run(clock, app, 2000, before=seeds.load)
    finally:
        standalone.save_text = save
    assert "memory" in app.problem and not app.loop.calibration_due
    assert open(folder + CALIBRATION).read() == before
    journal = [json.loads(line)["move"] for line in open(folder + JOURNAL)
               if '"e": "move"' in line]
    assert journal == app.session.game.moves == [app.session.game.moves[0]]
    while len(app.session.game.moves) < 2:
        rig.advance_board(app.session.guide, seeds.counts, 4)
        rig.run(clock, app, 280, before=seeds.load)
    rig.run(clock, app, 2000, before=seeds.load)
    assert open(folder + CALIBRATION).read() != before and app.problem is None


def test_a_moves_files_are_written_after_the_reading_with_the_reads_queued():
    """A littlefs write stops a Pico's CPU for 50 ms or more: never while a reading is judged
    (at the end of a step, after it), one file a step, each after the load cells' next reads
    were queued."""
    import standalone
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    steps = []                          # what each step did, in order
    sensors, storage = device.sensors, app.storage
    plan_ahead, write, save, sense = (sensors.plan_ahead, storage.write, standalone.save_text,
                                      app._sense)

    def planned():
        queued = plan_ahead()
        if queued:
            steps[-1].append("queued")
        return queued

    def journal():
        steps[-1].append("journal")
        write()

    def saved(path, text):
        steps[-1].append("calibration")
        save(path, text)

    def sensed(now, frame):
        steps[-1].append("reading")
        sense(now, frame)

    sensors.plan_ahead, storage.write, standalone.save_text, app._sense = (
        planned, journal, saved, sensed)
    try:
        while not app.session.game.moves or not any("calibration" in s for s in steps):
            if not app.session.game.moves:
                rig.advance_board(app.session.guide, seeds.counts, 3)
            for _ in range(70):
                seeds.load()
                steps.append([])
                app.step()
                clock.advance(4)
    finally:
        standalone.save_text = save
    written = [s for s in steps if "journal" in s or "calibration" in s]
    assert [s[-1] for s in written] == ["journal", "calibration"], written
    for s in written:                   # alone, last in its step, after its reads were queued
        assert s[-2:] in (["queued", "journal"], ["queued", "calibration"]), s
    assert not storage.due and not app.loop.calibration_due
    moves = [json.loads(line)["move"] for line in open(folder + JOURNAL)
             if '"e": "move"' in line]
    assert moves == app.session.game.moves


def test_a_moves_files_wait_a_second_at_most_for_the_next_scripts():
    """A CPU with no idle turn (a 2 x 12 board's sensing) never makes every script: the files
    are written all the same, each SCRIPTS_FIRST_MS after the one before (the move's end)."""
    from controller.session import Session
    from standalone import SCRIPTS_FIRST_MS
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    prepared = Session.prepared
    Session.prepared = property(lambda session: False)      # never all made
    try:
        while not app.session.game.moves:
            rig.advance_board(app.session.guide, seeds.counts, 4)
            rig.run(clock, app, 40, before=seeds.load)
        assert app.storage.due
        rig.run(clock, app, SCRIPTS_FIRST_MS - 100, before=seeds.load)
        assert app.storage.due and app.loop.calibration_due
        rig.run(clock, app, 200, before=seeds.load)
        assert not app.storage.due and app.loop.calibration_due     # one file, then the other
        rig.run(clock, app, SCRIPTS_FIRST_MS, before=seeds.load)
        assert not app.loop.calibration_due
    finally:
        Session.prepared = prepared
    moves = [json.loads(line)["move"] for line in open(folder + JOURNAL)
             if '"e": "move"' in line]
    assert moves == app.session.game.moves


def test_a_moves_files_are_written_even_when_the_reads_cannot_be_queued():
    """A CPU always late for the load cells' next read (never a moment to queue them) still
    writes a move's files, UNPLANNED_MS after the move: a game kept is worth a few readings."""
    from standalone import UNPLANNED_MS
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    device.may_be_away = lambda: False
    while not app.session.game.moves:
        rig.advance_board(app.session.guide, seeds.counts, 4)
        rig.run(clock, app, 40, before=seeds.load)
    rig.run(clock, app, UNPLANNED_MS - 200, before=seeds.load)
    assert app.storage.due
    rig.run(clock, app, 400, before=seeds.load)
    assert not app.storage.due and app.loop.calibration_due      # the next file waits its turn
    rig.run(clock, app, UNPLANNED_MS, before=seeds.load)
    assert not app.loop.calibration_due
    moves = [json.loads(line)["move"] for line in open(folder + JOURNAL)
             if '"e": "move"' in line]
    assert moves == app.session.game.moves


def test_a_collection_found_due_goes_before_the_calibration_not_the_journal():
    """The calibration's file is opened with a kilobyte in one piece, which a full heap may
    not have: when a look at the heap found it low, the collection takes the next moment the
    load cells allow (Device.tick), and the calibration waits for it (UNPLANNED_MS at most).
    The journal, kept open and written line by line, does not wait: a collection can wait
    seconds for its moment (3 s on the emulated Pico, a CPU busy with each reading after a
    move), and a move heard done and lost to a power cut then would be taken back."""
    from standalone import SCRIPTS_FIRST_MS, UNPLANNED_MS
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    device._collect_due = True          # as after a look (the fakes' heap is never looked at)
    for moves in (1, 2):
        while len(app.session.game.moves) < moves:
            rig.advance_board(app.session.guide, seeds.counts, 4)
            rig.run(clock, app, 40, before=seeds.load)
        assert app.storage.due and app.loop.calibration_due
        rig.run(clock, app, SCRIPTS_FIRST_MS + 100, before=seeds.load)
        assert not app.storage.due and app.loop.calibration_due     # the journal at once
        written = [json.loads(line)["move"] for line in open(folder + JOURNAL)
                   if '"e": "move"' in line]
        assert written == app.session.game.moves
        rig.run(clock, app, UNPLANNED_MS - SCRIPTS_FIRST_MS - 300, before=seeds.load)
        assert app.loop.calibration_due      # waiting for the collection
        if moves == 1:
            device._collect_due = False     # collected
            rig.run(clock, app, 100, before=seeds.load)
            assert not app.loop.calibration_due
            device._collect_due = True
        else:
            rig.run(clock, app, 400, before=seeds.load)
            assert not app.loop.calibration_due  # a collection that never comes holds it no longer


def test_the_leds_are_drawn_on_a_turn_without_a_reading():
    """A turn does one job: a reading, a judgement, the session's update, or the LEDs (3 to
    6 ms on a Pico), which wait for a turn with nothing else to do, RENDER_WAITS busy turns
    at most (a CPU taking the readings queued while it was away): then they take the turn
    instead of the reading, which waits in the ring. Turns 1 ms apart draw the guide's frame on turns
    without a reading, every RENDER_MS or so; turns 12 ms apart, each with a reading ready,
    draw it RENDER_WAITS turns after RENDER_MS, on a turn that takes no reading, and every
    other turn takes one, or judges a new band one made due, or updates the session."""
    for every in (1, 12):
        clock, device, app, folder = _standalone()
        seeds = rig.Seeds(app.session.game.pits + [0, 0])
        rig.run(clock, app, 400, before=seeds.load)
        strip = device.strip
        show = strip.show_places
        shown = []

        def counted(colours, led_place):
            shown.append(colours)
            return show(colours, led_place)

        strip.show_places = counted
        draws = []              # (turns since the last draw, fed a reading)
        turns = 0
        fed_turns = judged = held = 0
        for _ in range(1000 // every):
            fed = app.frames
            drawn = len(shown)
            judging = app.sensor.judge_due or app._changed is not None
            app.step()
            turns += 1
            fed_turns += app.frames != fed
            held += app._held >= 0          # a reading taken after a pass-over, sensed next
            judged += judging and app.frames == fed
            if len(shown) != drawn:
                draws.append((turns, app.frames != fed))
                turns = 0
            clock.advance(every)
        assert draws, every
        assert not any(fed for _, fed in draws), draws
        if every == 1:
            assert len(draws) >= 1000 // (RENDER_MS + every) - 1, draws
        else:
            # (while the first judgements are made, a reading held after a pass-over puts
            # them a turn or two later: into the turns the LEDs wait, twice RENDER_WAITS
            # at most for the session's work)
            due = RENDER_MS // every + 1
            for turns, _ in draws[1:]:
                assert due + RENDER_WAITS <= turns <= due + 2 * RENDER_WAITS, draws
            assert [turns for turns, _ in draws[-6:]] == [due + RENDER_WAITS] * 6, draws
            # every other turn took a reading (each has one ready: a conversion every 10.7
            # ms), or judged, or gave the session what they changed
            assert fed_turns + judged + held == 1000 // every - len(draws), (
                fed_turns, judged, held, len(draws))


def test_a_turn_takes_a_reading_or_judges_or_gives_the_session_what_changed():
    """A reading that changes a count is its parse, a judgement of the sensing's and then a
    step of the game's: on a 2 x 12 Pico any two in one turn were most of a frame. A new
    band's judgement comes in the turn after its reading, the session gets what they changed
    in the turn after that (or after the LEDs' turn, when they were overdue), neither takes
    a reading (it waits in the ring), and the boards of the move's next steps come in a turn
    after them; the game goes on as before."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    turns = []      # per turn: (took a reading, made a new band's judgement, updated)
    session = app.session
    sensor = app.sensor
    update = session.update
    updates = []

    def updated(counts, settled=None, faults=None):
        updates.append(1)
        return update(counts, settled, faults)

    session.update = updated
    show = device.strip.show_places
    drawn = []

    def shown(colours, led_place):
        drawn.append(1)
        return show(colours, led_place)

    device.strip.show_places = shown
    looked = []                 # turns that found the move's next boards missing
    while len(app.session.game.moves) < 2:
        rig.advance_board(app.session.guide, seeds.counts, 3)
        for _ in range(70):
            seeds.load()
            fed, told, draws = app.frames, len(updates), len(drawn)
            waiting = app._changed is None and not session.ready and not sensor.judge_due
            judging = sensor.judge_due
            app.step()
            turn = (app.frames != fed, judging, len(updates) != told)
            if any(turn) or len(drawn) == draws:        # (not a turn of the LEDs alone)
                turns.append(turn)
            if waiting:
                looked.append((app.frames != fed, session.ready))
            clock.advance(4)
    brief = "%d turns; %r" % (len(turns), turns[:40])
    assert sum(1 for turn in turns if turn[2]) >= 10, brief
    assert sum(1 for turn in turns if turn[1]) >= 10, brief
    assert all(sum(turn) <= 1 for turn in turns), brief
    # each judgement in the turn after its reading, each update after a reading or a
    # judgement (a settled flag lost needs none)
    # (the first turns' reading came before they were counted)
    assert all(turns[k - 1][0] for k, turn in enumerate(turns) if turn[1] and k > 1), brief
    assert all(turns[k - 1][0] or turns[k - 1][1]
               for k, turn in enumerate(turns) if turn[2] and k > 1), brief
    # and a step's update leaves the next steps' boards to a turn of their own
    assert len(looked) >= 5 and looked == [(False, True)] * len(looked), looked


def test_the_heap_is_left_a_turn_with_nothing_else():
    """The heap's look (8 ms on a Pico) and collection (30 ms) wait for a turn that did
    nothing else: no reading, judgement or update, no LEDs (a render and a look in one turn
    were 14.6 ms on a 2 x 12 Pico), no work ahead (a relay's script is up to 20 ms)."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    session = app.session
    did = []                    # this turn's jobs
    turns = []                  # per turn: (its jobs, tick's spare)
    show = device.strip.show_places
    prepare = session.prepare
    tick = device.tick

    def shown(colours, led_place):
        did.append("leds")
        return show(colours, led_place)

    def prepared():
        done = prepare()
        if done:
            did.append("prepare")
        return done

    def ticked(spare=True):
        turns.append((list(did), spare))
        return tick(spare)

    device.strip.show_places = shown
    session.prepare = prepared
    device.tick = ticked
    while len(session.game.moves) < 1:
        rig.advance_board(session.guide, seeds.counts, 3)
        for _ in range(70):
            seeds.load()
            fed, changed = app.frames, app._changed is not None or app.sensor.judge_due
            del did[:]
            app.step()
            if app.frames != fed or changed:
                did.append("reading")
            clock.advance(2)
    spare = [jobs for jobs, free in turns if free]
    assert len(spare) >= 20 and all(jobs == [] for jobs in spare), spare[:20]
    assert any("leds" in jobs for jobs, _ in turns) and any("prepare" in jobs for jobs, _ in turns)


def test_counted_places_are_judged_again_on_turns_without_a_reading():
    """A counted place's re-judgement (1 to 2 ms of floats on a Pico) never comes in a
    reading's turn, where a step of the game may be worked out too: the turns without one
    make them, each place's about every steady_ms as before."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 600, before=seeds.load)
    sensor = app.sensor
    assert all(sensor.settled) and sensor.judge_apart
    sense = app._sense
    in_feed = []

    def sensed(now, trusted):                  # a reading's turn: its sensing
        before = list(sensor.values)
        updated = sense(now, trusted)
        in_feed.extend(i for i in range(len(before)) if sensor.values[i] != before[i])
        return updated

    app._sense = sensed
    before = list(sensor.values)
    rig.run(clock, app, 2000, before=seeds.load)
    judged = [i for i in range(len(before)) if sensor.values[i] != before[i]]
    assert in_feed == [] and app.frames > 150
    assert len(judged) == len(before)           # every place judged again meanwhile
    assert all(sensor.settled) and app.session.guide.phase == "await"


def test_the_next_moves_scripts_are_worked_out_while_the_board_waits():
    """The turns with nothing to do prepare the step scripts of every legal pit and their
    look-ahead, so the reading where a pit is lifted need not compute them all (15 ms and
    10 ms on a Pico)."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    for moves in (0, 1):
        while len(app.session.game.moves) < moves:
            rig.advance_board(app.session.guide, seeds.counts, 4)
            rig.run(clock, app, 280, before=seeds.load)
        rig.run(clock, app, 200, before=seeds.load)
        guide = app.session.guide
        assert guide.phase == "await"
        assert sorted(guide.scripts) == sorted(app.session.game.legal_moves())
        assert not guide.prepare()              # the look-ahead made too: nothing left


def test_back_from_a_long_absence_the_guide_is_fed_the_newest_readings():
    """A flash write or a collection keeps the CPU away for tens of ms: the readings of
    meanwhile are stale to a guide, and each costs the Pico 0.7 to 2 ms to parse, so the turn
    after feeds it those of the last FRESH_US alone (a bridge's host has up to eight).
    A loop busy with other turns between its readings (judgements, updates, LEDs: 6 ms each
    here) passes nothing over."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    for away in (60, 150):
        fed = app.frames
        seeds.load()
        clock.advance(away)
        for _ in range(12):                     # a reading a turn: the queue's, no newer
            app.step()
        assert 1 <= app.frames - fed <= 3, (away, app.frames - fed)
        assert device.sensors.passed_over >= 1
        rig.run(clock, app, 200, before=seeds.load)
    passed, fed = device.sensors.passed_over, app.frames
    for _ in range(100):
        seeds.load()
        clock.advance(6)
        app.step()
    assert device.sensors.passed_over == passed and app.frames - fed >= 40, (
        device.sensors.passed_over - passed, app.frames - fed)
    assert app.sensing_errors == 0 and app.session.guide.phase == "await"


def test_a_take_that_catches_up_leaves_its_sensing_to_the_next_turn():
    """Back from a turn longer than FRESH_US (a relay's script made ahead: 20 to 38 ms on a
    2 x 12 Pico), the take parses the two or three readings of the last FRESH_US, as long
    as sensing one: that turn senses none of them, the next turn senses the first, the turns
    after the rest, one a turn; every reading parsed reaches the sensing. A take after a
    shorter turn senses its reading at once, whatever it parsed."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    reader = device.sensors
    for away in (22, 30, 60):
        rig.run(clock, app, 100, before=seeds.load)
        fed = app.frames
        while app.frames == fed:                # a turn that drained the ring just now
            seeds.load()
            clock.advance(1)
            app.step()
        clock.advance(away)
        made, fed, passed = reader.frames, app.frames, reader.passed_over
        app.step()
        parsed = reader.frames - made
        assert parsed >= 2 and app.frames == fed + (away < FRESH_US // 1000), (
            away, parsed, app.frames - fed)
        app.step()
        assert app.frames == fed + 1 + (away < FRESH_US // 1000), (away, app.frames - fed)
        for _ in range(6):
            clock.advance(1)
            app.step()
        assert app.frames - fed == reader.frames - made, (
            away, app.frames - fed, reader.frames - made)
        assert reader.passed_over == passed + (away > FRESH_US // 1000), away
    assert app.sensing_errors == 0 and app.session.guide.phase == "await"


def test_confirm_re_zeroes_a_cell_whose_zero_moved_while_it_was_faulty():
    """A cell knocked out of range (a loose wire: it reads full scale) comes back with its
    zero moved by half a seed: steady on no whole number of seeds, so its place stays faulty
    ("adrift"). A person looks, sees the pit is right, and presses confirm: the cell counts
    again from their word, on what the guide expects there, as on a Pi (`layli run`). (A
    North pit: on a pit the mover may lift, confirm vouches for a lift its sensor cannot see.)"""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    place = 8

    def broken():
        seeds.load()
        seeds.cells[place].value = 0x7FFFFF

    def drifted():
        seeds.load()
        seeds.cells[place].value += rig.PER_SEED[place] // 2

    rig.run(clock, app, 600, before=broken)
    assert app.sensor.faults[place] is not None
    rig.run(clock, app, 3000, before=drifted)
    assert app.sensor.adrift(place), app.sensor.faults[place]
    assert app.session.guide.faults[place] is not None
    rig.press(clock, app, "confirm")
    rig.run(clock, app, 600, before=drifted)
    assert app.sensor.faults[place] is None, app.sensor.faults[place]
    assert app.sensor.counts[place] == seeds.counts[place] == 4, (
        app.sensor.counts[place], seeds.counts[place])
    assert app.session.guide.faults[place] is None and app.session.guide.phase == "await"


def test_buttons_hint_undo_new_game():
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    rig.press(clock, app, "hint")
    hint = app.loop.hint_move(app.session.game)
    assert app.session.frame.where("pick") == [hint - 1]
    assert app.session.frame.colour(hint - 1) == "hint"
    while not app.session.game.moves:
        rig.advance_board(app.session.guide, seeds.counts, 4)
        rig.run(clock, app, 280, before=seeds.load)
    rig.press(clock, app, "undo")
    assert app.session.game.moves == [] and app.session.guide.phase == "restore"
    rig.advance_board(app.session.guide, seeds.counts, 0)   # the players put it back
    rig.run(clock, app, 400, before=seeds.load)
    assert app.session.guide.phase == "await"
    assert seeds.counts == Game("layli-goobalay").pits + [0, 0]
    rig.press(clock, app, "new_game")
    rig.run(clock, app, 200, before=seeds.load)     # (written once the scripts are made)
    lines = open(folder + JOURNAL).read().split("\n")
    assert lines[0].startswith('{"e": "game"') and lines[1:] == [""]


def test_hint_is_the_pico_level_of_the_computer_opponent():
    from controller.ai import Searcher
    app = _standalone()[2]
    game = Game("layli-goobalay")
    assert app.loop.hint_move(game) == Searcher("pico", seed=1).choose(game)
    assert app.loop.hint_move(game) in game.legal_moves()


def test_a_restarted_pico_resumes_the_game():
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    while len(app.session.game.moves) < 2:
        rig.advance_board(app.session.guide, seeds.counts, 4)
        rig.run(clock, app, 280, before=seeds.load)
    rig.run(clock, app, 200, before=seeds.load)     # the last move's journal lines written
    moves = app.session.game.moves[:]
    # the power goes; the seeds stay where they are
    clock, device, again, folder = _standalone(folder)
    assert again.session.game.moves == moves
    assert again.session.events[0][:3] == ("resumed", 2, None)     # between moves
    seeds = rig.Seeds(seeds.counts)
    rig.run(clock, again, 400, before=seeds.load)
    assert again.session.guide.phase == "await" and again.session.frame.where("more") == []


def test_a_new_board_is_calibrated_on_the_pico_then_plays():
    clock = rig.fresh_pico()
    config = rig.board_config("standalone")
    folder = rig.fresh_folder("calibrate")
    device = Device(config, clock)
    app = Standalone(device, clock, config["game"], folder)
    assert app.calibrating is not None and app.sensor is None
    seeds = rig.Seeds([0] * 14)                 # 1. the empty board
    rig.run(clock, app, 300, before=seeds.load)
    assert app.calibrating.frame().where("steady") == list(range(14))
    rig.press(clock, app, "confirm")
    rig.run(clock, app, 1000, before=seeds.load)
    assert app.calibrating.phase == "singles", app.problem
    rig.press(clock, app, "new_game")           # too early: no single seed yet
    assert "at least 5 single seeds (0 so far)" in app.problem
    assert app.calibrating.frame().where("flash") == list(range(14))
    for _ in range(6):                          # 2. single seeds into South's store
        seeds.counts[12] += 1
        rig.run(clock, app, 300, before=seeds.load)
        rig.press(clock, app, "confirm")
        rig.run(clock, app, 500, before=seeds.load)
    rig.press(clock, app, "new_game")
    assert app.calibrating.phase == "setup", app.problem
    seeds.counts[:12] = [4] * 12                # 3. the set-up, the 6 seeds to North
    seeds.counts[12:] = [0, 6]
    rig.run(clock, app, 300, before=seeds.load)
    rig.press(clock, app, "confirm")
    rig.run(clock, app, 1000, before=seeds.load)
    assert app.calibrating is None and app.sensor is not None, app.problem
    saved = json.loads(open(folder + CALIBRATION).read())
    for i in range(14):
        assert abs(saved["tare"][i] - rig.TARE[i]) <= 3
        assert abs(saved["per_seed"][i] - rig.PER_SEED[i]) < 2, (i, saved["per_seed"][i])
    # the game: the 6 seeds in North's store must go; then the first move as usual
    rig.run(clock, app, 400, before=seeds.load)
    assert app.session.frame.where("more") == [13]
    seeds.counts[13] = 0
    rig.run(clock, app, 400, before=seeds.load)
    while not app.session.game.moves:
        rig.advance_board(app.session.guide, seeds.counts, 4)
        rig.run(clock, app, 280, before=seeds.load)
    assert app.session.game.moves == [1]


def test_a_refused_calibration_step_says_why_and_waits():
    from calibrate import Calibrating
    steps = Calibrating(4, [2, 2])
    steps.press(3)
    for _ in range(80):
        steps.feed([100, 200, 300, 400])        # not a flicker: a disconnected cell
    assert steps.phase == "empty" and "constant 100" in steps.problem
    assert steps.frame().where("flash") == [0, 1, 2, 3]
    assert steps.events == [("refused", "empty")]
    steps.press(3)
    for k in range(80):
        steps.feed([100 + k % 3, 200 - k % 2, 300 + k % 4, 400 - k % 3])
    assert steps.phase == "singles" and steps.problem is None
    assert steps.frame().where("drop") == [2]


def test_a_calibration_for_another_board_shows_the_fault():
    clock = rig.fresh_pico()
    config = rig.board_config("standalone")
    folder = rig.fresh_folder("othercal")
    from controller.sensing import Calibration
    save_text(folder + CALIBRATION, Calibration([0] * 4, [1000.0] * 4).to_json())
    error = raises(StandaloneError, Standalone, Device(config, clock), clock, config["game"],
                   folder)
    assert str(error) == "%scalibration.json calibrates 4 load cells; this board has 14" % (
        folder)
    clock = rig.fresh_pico()
    assert start(config, clock, folder=folder) is None      # the message, the fault LEDs
    assert machine.line(rig.LED_PIN).owner == "pio"          # the strip's state machine
    r, g, b = FAULT_COLOUR                  # every LED dim yellow, in GRB on the wire
    assert rig.on_wire(4) == bytes((g, r, b)) * 28        # the strip's state machine: 4


def test_a_game_that_does_not_fit_the_board_is_refused():
    clock = rig.fresh_pico()
    folder = rig.fresh_folder("nofit")
    config = rig.board_config("standalone", game={"variant": "mangala-iv",
                                                  "layout": [[k] for k in range(16)]})
    error = raises(StandaloneError, Standalone, Device(config, clock), clock, config["game"],
                   folder)
    assert str(error) == "mangala-iv has 16 places (pits and stores); the board has 14 load cells"
    clock = rig.fresh_pico()            # another board (PIO block 0 holds one reader)
    config = rig.board_config("standalone", game={"layout": [[k] for k in range(12)]})
    error = raises(StandaloneError, Standalone, Device(config, clock), clock, config["game"],
                   folder)
    assert str(error) == "game.layout lights 12 places; layli-goobalay has 14"


def test_a_whole_game():
    """From the set-up to the collection, skip-ahead accepted with CONFIRM when offered."""
    clock, device, app, folder = _standalone()
    seeds = rig.Seeds(app.session.game.pits + [0, 0])
    rig.run(clock, app, 400, before=seeds.load)
    for _ in range(3000):
        if app.session.guide.phase == "over":
            break
        if app.session.guide.skip_offered:
            rig.press(clock, app, "confirm")
        rig.advance_board(app.session.guide, seeds.counts, 5)
        rig.run(clock, app, 280, before=seeds.load)
    assert app.session.guide.phase == "over", app.loop.recent
    assert seeds.counts == app.session.guide.board.places()
    assert seeds.counts[-2:] == app.session.game.scores
    assert any(event[0] == "game_over" for event in app.loop.recent)
    rig.run(clock, app, 1000, before=seeds.load)
    heard = []
    for hz, duty in machine.PWM.instances[-1].history:
        if duty and (not heard or heard[-1] != hz):
            heard.append(hz)
    assert heard[-4:] == [523, 659, 784, 1047], heard           # the tune at the end
