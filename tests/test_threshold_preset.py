"""The ``threshold`` preset's arithmetic (issue #73): a confidence target t makes answering pay only above t, and
its documented equivalences with TruthRL (t 1/2) and KnowRL's correctness term (t 2/3) hold at every p."""

from __future__ import annotations

import pytest

from reward_engine.config import parse_reward_config
from reward_engine.semantics import answer_bar, payoffs, semantics


def expected(pay: dict[str, float], p: float, answer: bool) -> float:
    return p * pay["right"] + (1 - p) * pay["wrong"] if answer else pay["abstain"]


@pytest.mark.parametrize("t", [0.1, 0.5, 2 / 3, 0.75, 0.9])
def test_answering_pays_exactly_above_t(t: float) -> None:
    pay = payoffs(semantics("threshold", threshold_t=t))
    assert pay == pytest.approx({"right": 1.0, "abstain": 0.0, "wrong": -t / (1 - t)})
    assert answer_bar(semantics("threshold", threshold_t=t)) == pytest.approx(t)
    for p in (t - 0.01, t + 0.01):
        assert (expected(pay, p, True) > expected(pay, p, False)) == (p > t)
    assert expected(pay, t, True) == pytest.approx(expected(pay, t, False))  # indifferent at the bar


@pytest.mark.parametrize(("t", "preset"), [(0.5, "truthrl"), (2 / 3, "knowrl")])
def test_equivalent_presets_rank_answer_and_abstain_alike_at_every_p(t: float, preset: str) -> None:
    """Same choice everywhere: the advantage of answering is a positive multiple of the threshold preset's."""
    ours, theirs = payoffs(semantics("threshold", threshold_t=t)), payoffs(semantics(preset))
    gains = []
    for i in range(101):
        p = i / 100
        a = expected(ours, p, True) - expected(ours, p, False)
        b = expected(theirs, p, True) - expected(theirs, p, False)
        assert (a > 1e-12) == (b > 1e-12) and (a < -1e-12) == (b < -1e-12)
        if abs(a) > 1e-9:
            gains.append(b / a)
    assert max(gains) == pytest.approx(min(gains))  # one scale: the same reward up to scale and shift


def test_threshold_needs_t_in_the_open_unit_interval() -> None:
    with pytest.raises(ValueError, match="needs threshold_t"):
        semantics("threshold")
    for bad in (0.0, 1.0, -0.2, 1.5):
        with pytest.raises(ValueError, match="threshold_t"):
            parse_reward_config({"preset": "threshold", "threshold_t": bad, "factuality": {"enabled": False}})
    with pytest.raises(ValueError, match="threshold_t sets the 'threshold' preset"):
        parse_reward_config({"preset": "truthrl", "threshold_t": 0.5, "factuality": {"enabled": False}})


def test_unset_threshold_leaves_other_presets_and_their_fingerprints_alone() -> None:
    plain = parse_reward_config({"preset": "knowrl", "factuality": {"enabled": False}})
    assert plain.reward_semantics.threshold_t is None and payoffs(plain.reward_semantics)["wrong"] == 0.0
    a = parse_reward_config({"preset": "threshold", "threshold_t": 0.6, "factuality": {"enabled": False}})
    b = parse_reward_config({"preset": "threshold", "threshold_t": 0.7, "factuality": {"enabled": False}})
    assert len({plain.fingerprint(), a.fingerprint(), b.fingerprint()}) == 3
