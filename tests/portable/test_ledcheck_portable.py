"""The bring-up's LED check under both runtimes (the Pico may run it one day): a board whose
rings a person looks at, with a ring wired backwards or two rings swapped."""

from controller.guide.pixels import LedLayout
from controller.session.bringup import BringUp, COLOUR, LIT, WHICH
from controller.session.ledcheck import strip_order
from controller.rules.script import place_label


class Board:
    """Two rows of two pits and two stores, a ring of 4 LEDs each, in the controller's order
    along the strip; `ring_at[p]`: whose LEDs are round place p; `cut`: no LED from it on gets
    data. No sensors (a board of beams: `counting` False), so no load step."""

    channels = 0
    counting = False
    led_order = "GRB"

    def __init__(self, ring_at=None, cut=None):
        self.leds = LedLayout.rings(6, 4)
        self.ring_at = ring_at or list(range(6))
        self.cut = cut
        self.pixels = [(0, 0, 0)] * 24

    def show_leds(self, pixels):
        self.pixels = [p if self.cut is None or i < self.cut else (0, 0, 0)
                       for i, p in enumerate(pixels)]

    def show(self, frame):
        pass

    def wait(self, ms):
        return [], []

    def seen(self, place):
        """(LEDs lit round `place`, of how many)."""
        leds = self.leds.leds[self.ring_at[place]]
        return len([i for i in leds if any(self.pixels[i])]), len(leds)


class Person:
    def __init__(self, board):
        self.board = board
        self.asked = []

    def tell(self, text):
        pass

    def choose(self, task):
        self.asked.append(task)
        lit = [p for p in range(6) if self.board.seen(p)[0]]
        if task.kind == COLOUR:             # the colour of the strip's lit LEDs
            shown = [p for p in self.board.pixels if any(p)]
            if not shown:
                return "none"
            top = max(shown[0])
            return ("red", "green", "blue")[list(shown[0]).index(top)]
        if task.kind == WHICH:
            return place_label(lit[0], 2)
        assert task.kind == LIT
        got, of = self.board.seen(task.place)
        if got == of and lit == [task.place]:
            return "whole"
        return "part" if got else ("other" if lit else "dark")


def check(board):
    person = Person(board)
    test = BringUp(board, person, 2)
    from controller.session.ledcheck import LedCheck
    LedCheck(test).run(False)
    return test, person


def test_the_colour_order_from_two_answers():
    assert strip_order("GRB", "red", "green") == "GRB"
    assert strip_order("GRB", "green", "red") == "RGB"
    assert strip_order("GRB", "blue", "blue") is None


def test_a_board_wired_right_names_nothing():
    test, person = check(Board())
    assert test.report.fixes == [] and test.unlit == set()
    assert [t.place for t in person.asked if t.kind == LIT] == [0, 1, 2, 3, 4, 5]


def test_a_ring_wired_backwards_stops_the_rest():
    test, person = check(Board(cut=8))         # place 2 (North's pit 1): LEDs 8-11
    texts = [fix.text for fix in test.report.fixes]
    assert len(texts) == 1 and texts[0].startswith("North's pit 1's ring (LEDs 8-11 of the "
                                                   "strip) stays dark"), texts
    assert "(3: N2, S store, N store)" in texts[0]
    assert test.unlit == {2, 3, 4, 5}


def test_two_rings_swapped_are_named_as_a_pair():
    test, person = check(Board(ring_at=[1, 0, 2, 3, 4, 5]))
    texts = [fix.text for fix in test.report.fixes]
    assert texts == ["The rings of South's pit 1 and South's pit 2 are swapped: lit for one, "
                     "the other lights. Swap the two rings' places in the chain, or their "
                     "entries in the profile's [leds] places."], texts
    assert test.unlit == {0, 1}
