"""The variants as OpenSpiel games, and OpenSpiel's MCTS as an opponent (host-only).

OpenSpiel (DeepMind's library of games and game-playing algorithms) is the outside yardstick of
`layli bench ai`: its plain MCTS with random rollouts knows nothing of mancala, so beating it at
equal time per move says the searcher's knowledge and speed are worth something.

Each variant is registered as an OpenSpiel Python game named `python_` + the variant with `_` for
`-` (`python_layli_goobalay`, ...). A state wraps a `controller.rules.Game`, so the rules are the
engine's own, never written twice:

    >>> import pyspiel
    >>> from controller.opponents.openspiel import register_games
    >>> register_games()
    >>> state = pyspiel.load_game("python_layli_goobalay").new_initial_state()
    >>> state.legal_actions()               # action = the mover's pit number - 1
    [0, 1, 2, 3, 4, 5]
    >>> state.apply_action(2); state.current_player()
    1

The returns are the game's result from each side: 1 for a win, -1 for a loss, 0 for a draw
(the final scores decide, as `Game.winner` does).

`OpenSpielMcts` plays with `choose(game) -> move` like every computer player here, with
OpenSpiel's `MCTSBot` unchanged but for one thing: it runs a fixed number of simulations, so for
a time budget `_TimedMCTSBot` is asked for a great many and marks the root as decided once the
time is up, which is where OpenSpiel's own loop stops (it stops on a proven root); the search
then overruns its time by at most one simulation. `MCTSBot.step` was seen to return a wrong
action on Python games here (0, not the action its own policy picks); `step_with_policy` gets it
right, and is what `choose` calls.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from controller.rules import VARIANTS, Game, Rules

PREFIX = "python_"
UCT_C = 2.0                     # OpenSpiel's own examples use 2 for games with returns in [-1, 1]
LEAST_SIMULATIONS = 2           # the first only evaluates the root: a move needs its children
UNLIMITED = 10 ** 9             # the simulations asked of a timed search: the clock stops it
MAX_GAME_LENGTH = 1000          # OpenSpiel's bookkeeping only (not enforced); the longest of
                                # 300 random games was 96 plies, on the 2 x 12 board


def short_name(variant: str) -> str:
    """The OpenSpiel name of `variant`: `layli-goobalay` -> `python_layli_goobalay`."""
    if variant not in VARIANTS:
        raise ValueError("unknown variant %r (known: %s)" % (variant, ", ".join(sorted(VARIANTS))))
    return PREFIX + variant.replace("-", "_")


def fresh_start(game: Game) -> Game:
    """A new game at `game`'s starting position: same rules, set-up, first mover, and the
    captures, Uurs and first-move flag it started from."""
    rules = game.rules
    uur = None if game.start_uur is rules.no_uurs else game.start_uur
    return Game(rules, setup=game.setup, first=game.first, captured=game.start_captured,
                uur=uur, first_move=game.start_first_move)


class _GameBox:
    """Holds a state's Game. OpenSpiel clones a Python state by deep-copying its attributes;
    this makes that `Game.copy()` (about 1 us) instead of a generic deep copy (about 100 us)."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict) -> _GameBox:
        return _GameBox(self.game.copy())


class LayliState(pyspiel.State):
    """An OpenSpiel state over a `controller.rules.Game`; action = pit number - 1."""

    def __init__(self, ospiel_game: LayliOpenSpielGame, game: Game) -> None:
        super().__init__(ospiel_game)
        self._box = _GameBox(game)

    @property
    def game(self) -> Game:
        """The wrapped engine game (its moves are this state's history, plus one)."""
        return self._box.game

    def current_player(self) -> int:
        game = self._box.game
        return pyspiel.PlayerId.TERMINAL if game.over else game.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return [move - 1 for move in self._box.game.legal_moves()]

    def _apply_action(self, action: int) -> None:
        self._box.game.push(action + 1)     # raises RulesError, naming the ply, if not legal

    def _action_to_string(self, player: int, action: int) -> str:
        return "%s %d" % (("South", "North")[player], action + 1)

    def is_terminal(self) -> bool:
        return self._box.game.over

    def returns(self) -> list[float]:
        winner = self._box.game.winner()
        if winner is None:          # a draw, or a game still in play
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return self._box.game.state_json()


class LayliOpenSpielGame(pyspiel.Game):
    """One variant, with its default options, as an OpenSpiel game."""

    variant = ""    # set on the subclass that `register_games` makes for each variant

    def __init__(self, params: dict | None = None) -> None:
        game_type, game_info = _type_and_info(self.variant)
        super().__init__(game_type, game_info, params or {})

    def new_initial_state(self) -> LayliState:
        return LayliState(self, Game(self.variant))

    def state_from(self, game: Game) -> LayliState:
        """The state of `game` (any options, set-up or starting position of this variant), its
        history the game's moves, each replayed through `apply_action`."""
        if game.rules.name != self.variant:
            raise ValueError("a %s game cannot become a %s state" % (game.rules.name,
                                                                     self.variant))
        if game.rules.n > self.num_distinct_actions():
            raise ValueError("%d pits a row is more than the %d actions of %s" % (
                game.rules.n, self.num_distinct_actions(), self.get_type().short_name))
        state = LayliState(self, fresh_start(game))
        for move in game.moves:
            state.apply_action(move - 1)
        return state


def _type_and_info(variant: str) -> tuple[pyspiel.GameType, pyspiel.GameInfo]:
    """OpenSpiel's description of `variant`: two players, sequential, deterministic, perfect
    information, zero-sum, rewards at the end only; one action per pit of the widest row."""
    spec = VARIANTS[variant]
    widest = spec.options["pits"][2][1] if "pits" in spec.options else Rules(variant).n
    game_type = pyspiel.GameType(
        short_name=short_name(variant),
        long_name="Layli: %s" % spec.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,    # MCTS needs neither
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={})
    game_info = pyspiel.GameInfo(
        num_distinct_actions=widest,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH)
    return game_type, game_info


def register_games() -> None:
    """Register every variant with OpenSpiel (once; calling again does nothing)."""
    registered = set(pyspiel.registered_names())
    for variant in sorted(VARIANTS):
        name = short_name(variant)
        if name in registered:
            continue
        game_class = type(name, (LayliOpenSpielGame,), {"variant": variant})
        game_type, _ = _type_and_info(variant)
        pyspiel.register_game(game_type, game_class)


def load(variant: str) -> LayliOpenSpielGame:
    """The registered OpenSpiel game of `variant`."""
    register_games()
    return pyspiel.load_game(short_name(variant))


class _TimedMCTSBot(mcts.MCTSBot):
    """`MCTSBot` that stops on a clock: at the start of a simulation past `deadline` (and once
    the root has its children), the root is marked as decided, and OpenSpiel's loop stops after
    that simulation. The mark is on the root only, which `best_child` does not look at."""

    deadline = float("inf")     # time.perf_counter() seconds

    def _apply_tree_policy(self, root, state):
        if (root.outcome is None and root.explore_count >= LEAST_SIMULATIONS
                and time.perf_counter() >= self.deadline):
            root.outcome = [0.0] * self._game.num_players()
        return super()._apply_tree_policy(root, state)


class OpenSpielMcts:
    """OpenSpiel's `MCTSBot` (UCT, one random rollout per leaf, MCTS-Solver) as a player.

    Give either `seconds_per_move` (a clock stops each search) or `simulations` (a fixed
    count: with a seed, the same moves every time). `last` says what the last search did:
    {"move", "seconds"}.
    """

    def __init__(self, seconds_per_move: float | None = None, simulations: int | None = None,
                 seed: int = 1) -> None:
        if (seconds_per_move is None) == (simulations is None):
            raise ValueError("give either seconds_per_move or simulations, not %s" % (
                "both" if simulations is not None else "neither"))
        if seconds_per_move is not None and not seconds_per_move > 0:
            raise ValueError("seconds_per_move must be more than 0, not %r" % (seconds_per_move,))
        if simulations is not None and (type(simulations) is not int
                                        or simulations < LEAST_SIMULATIONS):
            raise ValueError("simulations must be a whole number >= %d, not %r" % (
                LEAST_SIMULATIONS, simulations))
        self.seconds_per_move = seconds_per_move
        self.simulations = simulations
        self.random_state = np.random.RandomState(seed)
        self.last: dict | None = None

    def choose(self, game: Game) -> int:
        """The move MCTS picks for `game.to_move` (a pit number); `game` is not changed."""
        if game.over:
            raise ValueError("the game is over: there is no move to choose")
        ospiel_game = load(game.rules.name)
        state = ospiel_game.state_from(game)
        timed = self.seconds_per_move is not None
        bot = _TimedMCTSBot(ospiel_game, UCT_C, UNLIMITED if timed else self.simulations,
                            mcts.RandomRolloutEvaluator(1, self.random_state),
                            random_state=self.random_state)
        start = time.perf_counter()
        if timed:
            bot.deadline = start + self.seconds_per_move
        _, action = bot.step_with_policy(state)
        self.last = {"move": int(action) + 1, "seconds": time.perf_counter() - start}
        return self.last["move"]
