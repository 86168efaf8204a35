"""Files and logs every package shares: line-numbered record reading, append-only JSONL,
the user cache location and the command lines' logging set-up. Imports the standard
library only, so ``retrieval``, ``reward_engine`` and ``knowrl`` can all depend on it."""
