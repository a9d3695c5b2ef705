"""Game flow at a board: the session (engine + guide + journal) and its storage (portable)."""

from .storage import MemoryStorage, FileStorage
from .session import Session, SessionError, SYNC_STEP, SYNC_MOVE
