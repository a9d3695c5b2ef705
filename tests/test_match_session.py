"""A match at the board: hands played with the guide, the next hand set up from the load
cells (the arranger's seeds read wherever they are put, the other player's copied or placed),
and the journal resuming anywhere, set-up included."""

import random

import pytest

from controller.guide.frame import DROP, LESS, MORE, PICK
from controller.guide.setup import ARRANGE, COPY, PLACE
from controller.rules.record import write_match
from controller.session import MemoryStorage, Session
from simulator.players import LedPlayer, apply_action


def set_up(session, counts, rng):
    """One action of the players setting up the next hand, reading only the LEDs."""
    setup = session.setup
    frame = setup.frame
    n = setup.n
    more, less = frame.where(MORE), frame.where(LESS)
    store = frame.where(PICK)
    stores = (2 * n, 2 * n + 1)
    less = [place for place in less if place not in stores]
    more = [place for place in more if place not in stores]     # a store's extra fills pits
    if less or more:
        # too few: from the owner's store; too many: back to it
        place = (less or more)[0]
        home = stores[0 if place < n else 1]
        step = 1 if less else -1
        counts[home] -= step
        counts[place] += step
        return
    pits = frame.where(DROP)
    empty = [pit for pit in pits if counts[pit] == 0]
    target = empty[0] if empty else rng.choice(pits)    # one at least in each, the rest anyhow
    counts[store[0]] -= 1
    counts[target] += 1


def play_match(storage, options, seed, cut=None):
    session = Session(storage, "layli-goobalay", options, match=True)
    counts = session.game.pits + [0, 0]
    player = LedPlayer(6, random.Random(seed))
    rng = random.Random(seed + 1)
    session.update(counts)
    actions = 0
    phases = set()
    while not session.match.over and actions < 20000:
        if cut is not None and actions == cut:
            session = Session.resume(MemoryStorage(storage.lines()))
            session.update(counts)
        if session.setup is not None:
            phases.add(session.setup.phase)
            set_up(session, counts, rng)
        else:
            apply_action(player.next_action(session.frame, counts), counts, player)
        session.update(counts)
        actions += 1
    return session, phases, actions


@pytest.mark.parametrize("arrangement, setting", [("mirror", COPY), ("free", PLACE)])
def test_a_match_of_hands_set_up_from_the_board(arrangement, setting):
    storage = MemoryStorage()
    session, phases, _ = play_match(storage, {"hands": 3, "arrangement": arrangement}, 4)
    match = session.match
    assert match.over and len(match.games) >= 2
    assert {ARRANGE, setting} <= phases
    for k in range(1, len(match.games)):            # each later hand started from its set-up
        setup = match.games[k].setup
        assert min(setup) >= 1
        if arrangement == "mirror":
            assert setup[:6] == setup[6:]
    assert sum(match.holdings) == 48


def test_a_match_resumes_anywhere_with_the_same_record():
    options = {"hands": 2}
    whole, _phases, total = play_match(MemoryStorage(), options, 7)
    expected = write_match(whole.match)
    for cut in random.Random(3).sample(range(1, total), 6):
        again, _phases, _ = play_match(MemoryStorage(), options, 7, cut)
        assert write_match(again.match) == expected, cut


def test_the_arrangers_row_is_taken_only_once_every_seed_they_hold_is_in_it():
    """A reading between two of the arranger's drops shows their store empty and a seed in
    every pit while their hand still holds some: not yet their arrangement (taking it made
    Match.arrange refuse the row, an error out of the board loop)."""
    session = Session(MemoryStorage(), "layli-goobalay", match=True)
    game = session.game
    while not game.over:                    # any hand, played out on the engine
        game.push(game.legal_moves()[0])
    session.update(game.pits + list(game.scores))
    setup = session.setup
    arranger, held = setup.arranger, setup.holdings[setup.arranger]
    counts = [0] * 14
    counts[12 + 1 - arranger] = setup.holdings[1 - arranger]
    counts[arranger * 6:arranger * 6 + 6] = [1] * 6     # the rest still in the hand
    session.update(counts)
    assert setup.phase == ARRANGE and held > 6
    counts[arranger * 6] += held - 6                    # the last seeds down
    session.update(counts)
    assert setup.phase != ARRANGE


def test_set_up_needs_counting_mode():
    with pytest.raises(ValueError, match="counting mode"):
        Session(MemoryStorage(), "layli-goobalay", match=True, mode="activity")
