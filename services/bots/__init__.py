"""The bots' decision making: what a seat knows (``knowledge``), how each personality decides (``strategy``).

Pure code: no I/O, no clock but the strong bot's search budget. The bots service builds a
``SeatKnowledge`` with ``knowledge_from(state, seat)`` and asks ``decide`` for an action.
"""

import services.rules  # noqa: F401  # first: it says whether the compiled modules here are imported (MAUMAU_PURE)
