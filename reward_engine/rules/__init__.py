"""Reward rules: what one completion is paid, by name, chosen by the preset (or ``rule:`` in the config).

A rule owns the reward policy -- the format term, the no-answer rule, abstention, which stages it asks for
(the grader, the fact score, a verdict on the response), how their answers combine, and the total -- and
composes the arithmetic of ``reward_engine.semantics``. The engine runs what a rule asks and sets statuses:

- ``graded``: KnowRL (``knowrl``, ``knowrl-robust``, ``knowrl-june2025``): the grader's label plus the fact score;
- ``ternary``: the label alone (``truthrl``, ``truthrl-strict``, ``threshold``);
- ``binary_rar``: one verdict on the response with its question (``binary-rar``).

``base`` is the interface, ``registry`` the names, ``grading`` the label step the first two share.
"""
