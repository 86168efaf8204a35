"""The test judge as a job: ``python -m reward_engine.judge_server --port 8011 [--latency-ms 300] ...``.

The server itself is ``reward_engine.judge.server``; this module keeps the command's name.
"""

from __future__ import annotations

from reward_engine.judge.server import main

if __name__ == "__main__":
    raise SystemExit(main())
