"""The simulator's limits: rounds per player count and the seed (the CLI's option ranges)."""
from __future__ import annotations

#: Most rounds per player count one simulation plays (a result row is 80 bytes: 10⁸ rounds are
#: past the default memory budget already, which then stops the run cleanly).
MAX_ROUNDS = 100_000_000
#: Largest --seed: the compiled interpreter takes the seed as a 64-bit signed integer.
MAX_SEED = 2**63 - 1
