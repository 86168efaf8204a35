"""The reward forecast (issue #73): the optimum each preset asks for, read from a probe before training."""

from __future__ import annotations

import json

import pytest

from knowrl.effect.forecast import (
    fit_prior,
    forecast,
    forecast_set,
    main,
    optimum_actions,
    p_right,
    policy_p_right,
    warning,
)
from reward_engine.semantics import answer_bar, payoffs, semantics

PS = [0.05, 0.3, 0.45, 0.55, 0.6, 0.7, 0.75, 0.85, 0.95]


@pytest.mark.parametrize(
    ("preset", "overrides", "answered"),
    [
        ("knowrl", {}, [0.7, 0.75, 0.85, 0.95]),  # bar 2/3
        ("knowrl-robust", {}, [0.7, 0.75, 0.85, 0.95]),
        ("truthrl", {}, [0.55, 0.6, 0.7, 0.75, 0.85, 0.95]),  # bar 1/2
        ("threshold", {"threshold_t": 0.8}, [0.85, 0.95]),
        ("threshold", {"threshold_t": 0.25}, [0.3, 0.45, 0.55, 0.6, 0.7, 0.75, 0.85, 0.95]),
        ("knowrl-june2025", {}, PS),  # refusal -1 like a wrong answer: always answer
        ("binary-rar", {}, []),  # abstaining is never worse
    ],
)
def test_the_optimum_answers_exactly_above_each_presets_bar(preset: str, overrides: dict, answered: list) -> None:
    sem = semantics(preset, **overrides)
    got = [p for p, a in zip(PS, optimum_actions(PS, payoffs(sem))) if a]
    assert got == answered
    result = forecast_set(PS, payoffs(sem), answer_bar(sem))
    assert result.abstain_share == pytest.approx(1 - len(answered) / len(PS))
    assert result.correct == pytest.approx(sum(answered) / len(PS))
    assert result.incorrect == pytest.approx(sum(1 - p for p in answered) / len(PS))


def test_expected_reward_is_the_best_action_per_question_and_beats_both_fixed_policies() -> None:
    pay = payoffs(semantics("truthrl"))
    result = forecast_set([0.9, 0.1], pay, 0.5)
    assert result.expected_reward == pytest.approx((0.9 - 0.1 + 0.0) / 2)
    assert result.expected_reward >= max(result.expected_reward_answer_all, result.expected_reward_abstain_all)
    assert result.f_base == pytest.approx(0.5)  # answering both: F = correct = mean p
    assert result.f_oracle >= max(result.f_optimum, result.f_base)


def test_posteriors_shrink_towards_the_family_not_the_pool() -> None:
    """0 of 8 in a family the policy mostly knows is less sure than 0 of 8 in one it never knows."""
    probe = {f"easy:{i}": {"correct": 8} for i in range(30)} | {"easy:x": {"correct": 0}}
    probe |= {f"hard:{i}": {"correct": 0} for i in range(30)}
    family = {q: q.split(":")[0] for q in probe}
    ps = p_right(probe, family, 8)
    assert ps["easy:x"] > ps["hard:0"]
    assert 0 < ps["hard:0"] < 0.1 and 0.9 < ps["easy:0"] < 1
    assert fit_prior([], 8).posterior_mean(4, 8) == pytest.approx(0.5)


def test_forecast_counts_made_up_as_p0_and_leaves_unprobed_out() -> None:
    probe = {f"fam:{i}": {"correct": 8 if i < 10 else 0} for i in range(40)}
    train = [{"qid": f"fam:{i}", "answerable": True, "template": "fam"} for i in range(40)]
    train += [{"qid": "made:1", "answerable": False, "template": "capital"}, {"qid": "fam:new", "answerable": True}]
    result = forecast({"train": train}, probe, 8, semantics("truthrl"))["train"]
    assert result["questions"] == 41 and result["unprobed"] == 1
    assert result["abstain_share"] == pytest.approx(31 / 41)  # 30 unknown + the made-up one


def test_warning_only_above_eighty_percent_abstention() -> None:
    assert warning({"train": {"abstain_share": 0.8, "answer_bar": 0.67}}) is None
    note = warning({"train": {"abstain_share": 0.91, "answer_bar": 0.67}})
    assert note and "91%" in note and "0.67" in note


def test_cli_json_has_train_and_heldout_with_the_issues_keys(tmp_path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    rows = [{"qid": f"fam:{i}", "answerable": True, "template": "fam"} for i in range(30)]
    (data / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:20]))
    (data / "heldout.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[20:]))
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps({"k": 8, "probe": {r["qid"]: {"correct": 7 * (i % 2)} for i, r in enumerate(rows)}}))
    assert main([str(probe), "--preset", "knowrl", "--data", str(data), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got) == {"train", "heldout"}
    for part in got.values():
        assert {"abstain_share", "f_optimum", "f_base", "f_oracle", "expected_reward"} <= set(part)
        assert part["abstain_share"] == pytest.approx(0.5)
    with pytest.raises(SystemExit):
        main([str(probe), "--preset", "threshold", "--data", str(data)])  # no threshold_t: a clear error


def test_the_pipeline_prints_the_table_and_warns_once(tmp_path, capsys, caplog) -> None:
    from knowrl.config import load_train_config
    from knowrl.pipeline import print_forecast

    rows = [{"qid": f"fam:{i}", "answerable": True, "template": "fam"} for i in range(20)]
    for name in ("train", "heldout"):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg = load_train_config(
        "configs/selective.yaml",
        [f"data.train={tmp_path / 'train.jsonl'}", f"data.eval={tmp_path / 'heldout.jsonl'}", f"output_dir={tmp_path}"],
    )
    probed = {f"fam:{i}": {"correct": 1 if i == 0 else 0} for i in range(20)}  # the policy knows almost nothing
    with caplog.at_level("WARNING"):
        result = print_forecast(cfg, probed, 8)
    printed = capsys.readouterr().out
    assert result["train"]["abstain_share"] > 0.8
    note = warning(result)
    assert note and "| train | 20 |" in printed
    assert printed.count(note) + caplog.text.count(note) == 1


def test_a_prior_over_varied_draws_is_the_fixed_draw_prior_when_the_draws_agree() -> None:
    counts = [0, 1, 6, 8, 8, 2]
    fixed, varied = fit_prior(counts, 8), fit_prior(counts, [8] * len(counts))
    assert (fixed.a, fixed.b) == pytest.approx((varied.a, varied.b))
    assert fit_prior([3, 0], [0, 0]) == fit_prior([], 8)  # nothing drawn: the flat prior


def test_the_policys_own_forecast_reads_its_attempts_not_its_abstentions() -> None:
    """GRPO pays the policy it samples: a question it attempts once and gets right (abstaining on the rest) is
    worth answering under truthrl; one it answers every time and gets wrong half the time less so; one never
    attempted takes its family's accuracy. A made-up thing stays at p 0 whatever it says."""
    rows = [{"qid": f"f{i}", "template": "f", "answerable": True} for i in range(24)]
    counts = [[7, 1, 0, 0]] * 10 + [[1, 7, 0, 0]] * 10 + [[1, 0, 7, 0], [2, 6, 0, 0], [0, 0, 8, 0], [0, 8, 0, 0]]
    rows.append({"qid": "made-up", "template": "f", "answerable": False})
    counts.append([8, 0, 0, 0])
    ps = policy_p_right(rows, counts)
    assert "made-up" not in ps and len(ps) == 24
    assert ps["f20"] > 0.5 > ps["f21"] > ps["f23"]  # right in its one attempt vs 2 of 8 vs 0 of 8
    assert ps["f22"] == pytest.approx(
        fit_prior([7] * 10 + [1] * 10 + [1, 2, 0, 0], [8] * 20 + [1, 8, 0, 8]).posterior_mean(0, 0)
    )
    sem = semantics("truthrl")
    result = forecast({"train": rows}, {}, 8, sem, ps=ps)["train"]
    answered = optimum_actions([ps[f"f{i}"] for i in range(24)], payoffs(sem))
    assert answered[20] and not answered[21] and not answered[23]
    assert result["abstain_share"] == pytest.approx(1 - sum(answered) / 25)  # the made-up row abstains
