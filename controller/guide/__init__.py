"""The LED guide: the state machine that walks a move's step script against the sensed board
and says what every pit and store shows (portable core)."""

from .frame import Frame
from .guide import Guide, COUNTING, ACTIVITY, AWAIT, SOWING, SKIP, RESTORE, OVER
