"""What a GRPO run trains on: its data, prompt and reward functions, per ``task``.

``registry`` maps ``task: knowrl | math | reasoning_gym`` to them. The rule-verified
rewards live beside their data: ``math_reward`` + ``boxed`` + ``math_data``,
``rg_reward`` + ``rg_data``, sharing ``base`` (worker pool, reward-log sink) and
``verify_pool``. ``task: knowrl`` is rewarded by ``reward_engine``.
"""
