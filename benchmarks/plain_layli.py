"""A plain hand-written layli-goobalay playout loop: the reference the engine is measured against.

Every rule of docs/rules.md section 2 and 6 with the default options (relay, Uurs, capture with the
last seed, the endless bound, the repetition rule, the end when the mover has no move), in one
function with no abstraction. `layli bench rules` times it in the same run as the engine, so the
comparison holds on a noisy machine. It is not used by the product.
"""


def playout(rng, bound=10000):
    """Play one game of uniformly random legal moves; return (moves played, scores)."""
    pits = [4] * 12
    uur = [None] * 12
    captured = [0, 0]
    mover = 0
    seen = set()
    moves = 0
    while True:
        key = bytes(pits) + bytes((mover,))
        if key in seen:
            break
        seen.add(key)
        choices = [i for i in range(mover * 6, mover * 6 + 6) if pits[i] and uur[i] is None]
        played = False
        while choices:
            start = choices[rng.randrange(len(choices))]
            board = pits[:]
            owners = uur[:]
            gain = 0
            uur_made = False
            i = start
            hand = board[i]
            board[i] = 0
            dropped = 0
            while True:
                dropped += hand
                if dropped > bound:
                    gain = -1
                    break
                for _ in range(hand):
                    i = (i + 1) % 12
                    board[i] += 1
                if board[i] > 1:
                    if owners[i] is not None:
                        break
                    hand = board[i]
                    board[i] = 0
                    continue
                if (i < 6) == (mover == 0):
                    held = board[11 - i]
                    if held == 3:
                        board[11 - i] = board[i] = 2
                        owners[i] = owners[11 - i] = mover
                        uur_made = True
                    elif held:
                        board[11 - i] = 0
                        board[i] = 0
                        gain = held + 1
                break
            if gain < 0:
                choices.remove(start)
                continue
            pits = board
            uur = owners
            if gain or uur_made:
                captured[mover] += gain
                seen = set()
            played = True
            break
        if not played:
            break
        moves += 1
        mover = 1 - mover
    scores = captured[:]
    for i in range(12):
        if pits[i]:
            owner = uur[i]
            if owner is None:
                owner = 0 if i < 6 else 1
            scores[owner] += pits[i]
    return moves, scores
