"""The first game, taught by playing: a few short lessons of each game (host-only).

Each lesson sets the board to a position where South, the learner, has one move, and that
move shows one thing: sowing, a relay, a capture, an Uur (Layli Goobalay's), the end of a
game and its count. The learner makes it by following the rings, seed by seed, as on the
physical board (the page rehearses the board for a lesson): the lesson's words say what to do
before the move and what happened once it is made. Tampoduo and Mangala IV have their own,
for their own captures; the long board is taught on Layli Goobalay's (the same rules).

    lesson = LESSONS["tampoduo"][2]
    game = Game("tampoduo", setup=lesson.setup)
    game.push(lesson.pit)                 # what the lesson shows (tests check each one)

The positions were found by a search over small positions with the rules engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.languages import N_


@dataclass(frozen=True)
class Lesson:
    """One lesson: its title, the position (2n counts, South's pits from South's pit 1, then
    North's from North's pit 1; stores empty, South to move), South's one move (its pit,
    1..n), and the words before and after the move (in English, marked for the catalogues:
    the page says them with `_`)."""

    title: str
    setup: tuple[int, ...]
    pit: int
    before: str
    after: str


_LAYLI = (
    Lesson(N_("sowing"), (0, 0, 0, 0, 0, 3, 4, 4, 0, 4, 3, 4), 6,
           N_("You are South: your row is S1 to S6 (on a board, the row nearest you), and the "
              "S store holds what you capture. Your pit 6 is lit (✓): tap it to lift its 3 "
              "seeds. Then drop them one at a time where the ring pulses (↓): along the pits "
              "that follow, counterclockwise."),
           N_("That is sowing. Your last seed fell into an empty pit of North's row, so the move "
              "ended there. Now it is North's turn.")),
    Lesson(N_("a relay"), (0, 0, 0, 0, 3, 0, 4, 1, 4, 0, 3, 4), 5,
           N_("Lift your pit 5 and sow its 3 seeds. Watch where the last one falls: if the pit "
              "held seeds already, its ring blinks twice (↑): lift them all and sow on."),
           N_("Your last seed fell into a pit that already held a seed, so you lifted both and "
              "sowed on: a relay. A move goes on like this until its last seed falls into an "
              "empty pit, and can go round the board several times.")),
    Lesson(N_("a capture"), (0, 0, 3, 0, 0, 0, 2, 4, 4, 4, 2, 3), 3,
           N_("Lift your pit 3 and sow. Your last seed will fall into an empty pit of your own "
              "row: look at the pit facing it. The pits to empty into your store light up (⇒): "
              "tap each, and its seeds go into your store."),
           N_("The pit facing your last seed held 2, so you captured them, and your last seed "
              "too: 3 seeds into your store. With 1, 2, or 4 or more facing, you capture; with "
              "none, the move just ends.")),
    Lesson(N_("an Uur"), (3, 0, 0, 0, 0, 0, 2, 4, 3, 4, 2, 4), 1,
           N_("Lift your pit 1 and sow. This time the pit facing your last seed holds exactly 3: "
              "one of them moves into your pit. Tap the pit lit 1↓ (or 1↑, then 1↓) to move "
              "it."),
           N_("With exactly 3 facing, you made an Uur (\"pregnant\" in Somali): one of the three "
              "moved into your pit (1↑, then 1↓), and both pits, 2 seeds each, are yours to "
              "the "
              "end of the game (U). Nobody sows from an Uur or captures it; seeds sown into it "
              "stay there, so it grows.")),
    Lesson(N_("the end"), (3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0), 1,
           N_("North's row is empty. Lift your pit 1 and sow, and see what North can do. When "
              "the game ends, the seeds left in each row go into their owner's store: tap each "
              "pit lit ⇒."),
           N_("North has no seed to sow, so the game is over. Each player's score is what they "
              "captured, plus the seeds in their Uurs, plus the seeds left in their own row: your "
              "9 seeds are yours. The higher score wins. You know the game: play a real one!")),
)

_TAMPODUO = (
    _LAYLI[0],
    Lesson(N_("a relay"), (0, 0, 0, 0, 0, 3, 4, 4, 1, 4, 0, 4), 6,
           N_("Lift your pit 6 and sow its 3 seeds. Watch where the last one falls: if the pit "
              "held seeds already, its ring blinks twice (↑): lift them all and sow on."),
           N_("Your last seed fell into a pit that already held a seed, so you lifted both and "
              "sowed on: a relay. A move goes on like this until its last seed falls into an "
              "empty pit, and can go round the board several times.")),
    Lesson(N_("a capture"), (0, 0, 3, 0, 0, 0, 3, 4, 4, 4, 4, 2), 3,
           N_("Lift your pit 3 and sow. Your last seed will fall into an empty pit of your own "
              "row: look at the pit facing it. The pits to empty into your store light up (⇒): "
              "tap each, and its seeds go into your store."),
           N_("Your last seed fell into an empty pit of your own row, so you captured the 3 "
              "seeds facing it, and your last seed too: in Tampoduo whatever faces it is "
              "captured, however many.")),
    Lesson(N_("the end"), (3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0), 1,
           N_("North's row is empty. Lift your pit 1 and sow, and see what North can do. When "
              "the game ends, the seeds left in each row go into their owner's store: tap each "
              "pit lit ⇒."),
           N_("North has no seed to sow, so the game is over. Each player's score is what they "
              "captured plus the seeds left in their own row: your 9 seeds are yours. The "
              "higher score wins. You know the game: play a real one!")),
)

_MANGALA = (
    Lesson(N_("sowing"), (3, 0, 0, 0, 0, 0, 0, 3, 2, 1, 5, 6, 5, 5), 1,
           N_("You are South: your row is S1 to S7 (on a board, the row nearest you), and the "
              "S store holds what you capture. Every move is forced: the leftmost of your pits "
              "that holds stones, here your pit 1 (lit). Tap it to lift its 3 stones, then drop "
              "them one at a time where the ring pulses (↓)."),
           N_("That is sowing. Your last stone fell into an empty pit: it holds 1 now, so the "
              "move ended there. Now it is North's turn.")),
    Lesson(N_("a relay"), (0, 0, 0, 0, 3, 0, 0, 2, 5, 4, 0, 5, 5, 6), 5,
           N_("Lift your pit 5 and sow its 3 stones. Count the stones in the pit where the last "
              "one falls."),
           N_("Your last stone made 3 in North's pit 1: with 3, or 5 or more, you lift them all "
              "and sow on (a relay, ↑). The move went on until the last stone made 1.")),
    Lesson(N_("a capture"), (0, 0, 0, 0, 0, 3, 0, 3, 1, 6, 4, 1, 6, 6), 6,
           N_("Lift your pit 6 and sow. Your last stone will make 2 in its pit. The pits to "
              "empty into your store light up (⇒): tap each, and its stones go into your "
              "store."),
           N_("Exactly 2 (or 4) where the last stone fell: a capture, of that pit and the pit "
              "facing it; then, going back, each pit before it that holds 2 or 4, with the pit "
              "facing it. You took 2, then 4 and the 1 facing it: 7 stones, from both rows.")),
    Lesson(N_("the end"), (0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0), 7,
           N_("Three stones are left. Lift your pit 7 and sow, and capture."),
           N_("One stone was left on the board, so play stopped: more captured stones wins. You "
              "know the game: play a real one!")),
)

# the lessons of each variant (the long board's are Layli Goobalay's: the same rules)
LESSONS: dict[str, tuple[Lesson, ...]] = {
    "layli-goobalay": _LAYLI,
    "layli-goobalay-long": _LAYLI,
    "tampoduo": _TAMPODUO,
    "mangala-iv": _MANGALA,
}
# the variant a variant's lessons are played in
TAUGHT_IN = {"layli-goobalay": "layli-goobalay", "layli-goobalay-long": "layli-goobalay",
             "tampoduo": "tampoduo", "mangala-iv": "mangala-iv"}


__all__ = ["Lesson", "LESSONS", "TAUGHT_IN"]
