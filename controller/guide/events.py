"""The board's events, by kind: what the guide, a match's set-up and the session say happened.

An event is a tuple whose first item is its kind, one of the names below, and whose other
items are what it says (places count from 0: pits, then South's store, then North's):

    for event in loop.react():                  # controller.session.loop.BoardLoop
        if event[0] == MOVE_DONE:
            pit = event[1]

Every module that makes or reads events takes their kinds from here (docs/architecture.md,
"The board loop").

Portable core: MicroPython subset.
"""

# a move, step by step (Guide)
MOVE_STARTED = "move_started"        # (kind, pit lifted: 1..n)
STEP_DONE = "step_done"              # (kind, steps of the script done)
PASSED = "pass"                      # (kind, player): a player with no move passes
SKIP_OFFERED = "skip_offered"        # (kind, pit): a long relay; CONFIRM skips to its result
SKIP_AHEAD = "skip_ahead"            # (kind, pit): the offer taken; the board is led there
SKIPPED = "skipped"                  # (kind, pit): the board reached the move's result
MOVE_DONE = "move_done"              # (kind, pit)
MOVE_ABANDONED = "move_abandoned"    # (kind, pit): taken back before it ended
MOVE_TAKEN_BACK = "move_taken_back"  # (kind, pit): the last move taken back
BOARD_MATCHES = "board_matches"      # (kind,): the board is back where the guide leads it
GAME_OVER = "game_over"              # (kind, [south's score, north's])

# what went wrong, and put right (Guide)
MISTAKE = "mistake"                  # (kind, WRONG_PIT, place, expected place),
#                                      (kind, DIFFERENCE, {place: seeds too many (+) / few}),
#                                      (kind, ILLEGAL_PIT or OUTSIDE_SCRIPT, place)
WRONG_PIT = "wrong_pit"              # a seed dropped one place off the script's
DIFFERENCE = "difference"            # the counts differ from every board the script allows
ILLEGAL_PIT = "illegal_pit"          # digital sensors: a hand in a pit that cannot be played
OUTSIDE_SCRIPT = "outside_script"    # digital sensors: a hand where the move does not go
MISTAKE_CLEARED = "mistake_cleared"  # (kind, place): put right (counting sensors: the place a
#                                      seed went wrong into, or None for a difference)
TO_SET = "to_set"                    # (kind, {place: seeds too many (+) / few (-)}): the board
#                                      is being led to a position (a takeback, a skip ahead, a
#                                      game resumed or begun): what is left to move, not a mistake
SENSOR_FAULT = "fault"               # (kind, place, why): a sensor cannot be believed
CONFIRMED = "confirmed"              # (kind, place): a person vouched for a faulty place

# a match of hands (Session, guide.setup.HandSetup)
HAND_OVER = "hand_over"              # (kind, [seeds south holds, north's])
MATCH_OVER = "match_over"            # (kind, winner 0/1 or None for a draw, why)
ARRANGED = "arranged"                # (kind, player, their row)
HAND_READY = "hand_ready"            # (kind, south's row, north's row)

# the session (Session.resume)
RESUMED = "resumed"                  # (kind, moves played, move under way or None, its steps)
