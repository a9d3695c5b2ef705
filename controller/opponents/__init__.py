"""Computer opponents that are not the board's own (host-only): `players.GreedyPlayer`, the
largest immediate gain, the terminal game's simple opponent and `layli bench ai`'s yardstick;
`openspiel`, the variants as OpenSpiel games and OpenSpiel's MCTS, the outside yardstick. The
board's own searcher is the portable `controller.ai`."""
