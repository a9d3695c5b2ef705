"""Writes own_rules.jsonl: this project's vectors for options and edge cases the shared set
lacks (same format as shared_rules.jsonl, see README.md).

The key facts of each case are asserted by hand-worked tests in tests/test_rules.py; the file is
a frozen record of whole positions, replayed by CPython and MicroPython alike. Run it only to add
a case (`python tests/vectors/make_own_rules.py` from the project root), and read the diff.
"""
import json, random
from controller.rules import Game, Rules, deal_random_setup
cases = [
 ("capture-last-seed-false", "layli-goobalay", {"capture_last_seed": False}, [1,0,0,0,0,0,0,0,0,0,2,1], 0, [1], False, "capture_last_seed=false: the opposite 2 are captured, the last seed stays in South's pit 2"),
 ("end-when-either", "layli-goobalay", {"end_when": "either"}, [0,0,0,0,0,1,1,1,0,0,0,0], 0, [6], False, "end_when=either: South's row is bare after the move, so the game ends although North could move"),
 ("first-move-right", "layli-goobalay", {"first_move_right": True}, None, 0, [6, 1], False, "first_move_right: only pit 6 is legal at ply 0; North's reply is free"),
 ("endless-abar", "layli-goobalay", {"endless": "abar"}, [5,3,2,1,0,4,3,0,1,3,5,14], 0, [1], False, "endless=abar: South's endless pit 1 is legal and changes nothing but the turn"),
 ("only-endless-moves", "layli-goobalay", {"endless_bound": 3}, None, 0, [], False, "endless_bound=3: every pit would drop 4 seeds, so South has no legal move at ply 0"),
 ("repetition-by-abar", "layli-goobalay", {"endless": "abar", "endless_bound": 3}, None, 0, [1, 1], False, "two abar moves bring back the start with South to move: a repeated position ends the game"),
 ("lap-into-origin-uur", "layli-goobalay", {}, [12,0,0,0,0,0,0,0,0,0,0,2], 0, [1], False, "12 seeds: the 12th falls back into the emptied origin, opposite a 3: an Uur pair"),
 ("long-8-counterclockwise", "layli-goobalay-long", {"pits": 8, "direction": "counterclockwise"}, None, 0, [1, 2, 4], False, "the long board with 8 pits per row, sown counterclockwise"),
 ("must-feed", "tampoduo", {"must_feed": True}, [1,0,0,0,0,1,0,0,0,0,0,0], 0, [6], False, "must_feed: North's row is empty, so only South's pit 6 (which feeds it) is legal"),
 ("must-feed-no-move", "tampoduo", {"must_feed": True}, [1,0,0,0,0,0,0,0,0,0,0,0], 0, [], False, "must_feed: no move feeds North, so the game ends"),
 ("mangala-rightmost", "mangala-iv", {"start": "rightmost"}, None, 0, [], True, "start=rightmost: every turn starts from the mover's rightmost occupied pit"),
 ("mangala-north-first", "mangala-iv", {"first": 1}, None, 1, [], True, "first=1: North moves first"),
 ("mangala-endless-forced", "mangala-iv", {"endless_bound": 5}, None, 0, [], True, "endless_bound=5: the forced first move is endless, so the game ends at ply 0 scoring the rows"),
 ("mangala-random-setup", "mangala-iv", {}, "deal:7", 0, [], True, "a random set-up (dealt with seed 7) is carried as counts"),
]
out = []
def positions(variant, options, setup, first, moves, to_end):
    lines = []
    from controller.rules.replay import replay
    replay(variant, options, setup, first, moves, to_end, lines.append)
    return [json.loads(l) for l in lines]
for name, variant, options, setup, first, moves, to_end, note in cases:
    if setup == "deal:7":
        setup = deal_random_setup(Rules(variant, options), seed=7)
    out.append({"name": name, "variant": variant, "setup": setup, "first": first, "options": options, "moves": moves, "to_end": to_end, "note": note, "positions": positions(variant, options, setup, first, moves, to_end)})
# random games with options
rng = random.Random(2026)
for variant, options in [("layli-goobalay", {"capture_last_seed": False}), ("layli-goobalay-long", {"pits": 9}), ("tampoduo", {"must_feed": True}), ("mangala-iv", {"start": "free"}), ("layli-goobalay", {"end_when": "either", "first_move_right": True})]:
    g = Game(variant, options)
    while not g.over:
        g.push(rng.choice(g.legal_moves()))
    name = "random-%s-%s" % (variant, "-".join("%s-%s" % (k, str(v).lower()) for k, v in sorted(options.items())))
    out.append({"name": name, "variant": variant, "setup": None, "first": 0, "options": options, "moves": g.moves, "to_end": False, "note": "a whole random game with non-default options", "positions": positions(variant, options, None, 0, g.moves, False)})
with open(__file__.replace("make_own_rules.py", "own_rules.jsonl"), "w") as f:
    for case in out:
        f.write(json.dumps(case) + "\n")
print(len(out))
