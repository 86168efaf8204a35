"""The effect study's parts: the held-out set (size, templates, entity split, nothing copyable, made-up names
built differently), the per-question evaluation with two graders, and the selectivity figures."""

import numpy as np
import pytest

from knowrl.effect import demo_questions as dq
from knowrl.effect.heldout import grade_stage
from knowrl.effect.selectivity import known, paired_gap, report


@pytest.fixture(scope="module")
def split():
    items = dq.all_items()
    held, pool, fakes = dq.heldout_and_pool(items)
    return items, held, pool, fakes


def test_heldout_is_large_varied_and_split_by_entity(split):
    items, held, pool, fakes = split
    assert len(held) >= 300
    assert len({i.template for i in held if i.answerable}) >= 5
    assert {"born", "began", "maker", "capital_of"} & {i.template for i in held}  # from the Wikipedia leads
    held_links = {link.lower() for i in held for link in i.links}
    assert not any(link.lower() in held_links for i in pool for link in i.links)
    # Fixed across calls (the held-out set does not move with the training seed).
    again, _, _ = dq.heldout_and_pool(items)
    assert [i.qid for i in again] == [i.qid for i in held]


def test_no_heldout_question_gives_its_answer_away(split):
    _, held, _, _ = split
    assert not any(dq.copyable(i) for i in held)
    # The check itself catches a copyable question.
    kuwait = dq.Item("capital:x", "capital", "What is the capital of Kuwait?", ("Kuwait City",), True, "", ("Kuwait",))
    assert dq.copyable(kuwait)


def test_made_up_entities_differ_between_training_and_heldout(split):
    _, held, pool, fakes = split
    held_fake = [i.links[0].split(":", 1)[1] for i in held if not i.answerable]
    assert len(held_fake) == 50
    syllables = tuple(dq.SYLLABLES)
    # Training names are syllable strings; held-out ones come from the Markov chain, never the same name.
    assert all(any(f.lower().startswith(s) for s in syllables) for f in fakes)
    assert not set(held_fake) & set(fakes)
    train = dq.training_items(pool, fakes, 80, seed=3)
    assert len(train) == 80 and sum(not i.answerable for i in train) == 10
    assert not {i.qid for i in train} & {i.qid for i in held}


def test_an_i_dont_know_target_never_states_the_answer_it_abstains_from(split):
    from knowrl.effect.demo_data import reasoning, sft_example, states_answer

    _, _, pool, _ = split
    real = [i for i in pool if i.answerable]
    giving = [i for i in real if any(states_answer(s, i.aliases) for s in i.context)]
    assert len(giving) > 20  # the KB's own sentences often name the answer ("Lolita ... by Vladimir Nabokov")
    for item in giving:
        unsure = sft_example(0, item, unsure=True)["conversations"][1]["value"]
        assert "<answer>I don't know</answer>" in unsure
        assert not states_answer(unsure.split("</think>")[0], item.aliases), unsure
        assert states_answer(reasoning(item, unsure=False), item.aliases)  # the answered target still cites it
    # Sentences that do not name the answer stay, so most "I don't know" targets still reason from the KB.
    kept = [reasoning(i, unsure=True) != i.unsure for i in real]
    assert sum(kept) / len(kept) > 0.8


def test_two_graders_per_question_and_malformed_apart():
    rows = [
        {
            "question": "What is the capital of Kenya?",
            "answers": ["Nairobi"],
            "title": "",
            "aliases": ["Nairobi"],
            "answerable": True,
        },
        {
            "question": "What is the capital of Zorvia?",
            "answers": "(no such thing)",
            "title": "",
            "aliases": [],
            "answerable": False,
        },
    ]
    completions = [
        "<think>Kenya is in East Africa.</think><answer>Nairobi</answer>",
        "<think>Hmm</think><answer>Mombasa</answer>",
        "<think>I have no information about Zorvia.</think><answer>I don't know</answer>",
        "<think>Zorvia is a country",  # cut off: no answer
    ]
    stage = grade_stage(rows, completions, 2)
    assert stage["counts"] == [[1, 1, 0, 0], [0, 0, 1, 1]]  # CORRECT, INCORRECT, ABSTAINED, MALFORMED
    assert stage["rates"]["malformed"] == 0.25 and stage["rates"]["not_attempted"] == 0.25
    assert stage["agreement"]["n"] == 4


def test_selectivity_rewards_abstaining_on_unknown_only():
    answerable = [True] * 4 + [False]
    sampled = np.array([[2, 0, 0, 0], [2, 0, 0, 0], [0, 2, 0, 0], [0, 1, 1, 0], [0, 2, 0, 0]])
    is_known = known(sampled, answerable)
    assert is_known.tolist() == [True, True, False, False, False]
    before = np.array([[1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]])
    selective = np.array([[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 1, 0]])
    blanket = np.array([[0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 1, 0], [0, 0, 1, 0]])
    good, bad = report(selective, is_known, answerable), report(blanket, is_known, answerable)
    assert good["auroc_unknown"] == 1.0 and bad["auroc_unknown"] == 0.5
    assert good["abstain_made_up"] == 1.0 and good["n_made_up"] == 1
    assert paired_gap(before, selective, is_known, answerable)["delta"] == 1.0
    assert paired_gap(before, blanket, is_known, answerable)["delta"] == 0.0


def test_a_kept_probe_is_regraded_with_the_question_and_todays_grader() -> None:
    """After a grader change the kept boundary probe is graded again, not sampled again: a right answer in a
    sentence counts, another letter's name does not, and a question no row holds is left alone."""
    from knowrl.effect.boundary import regrade

    rows = [{"qid": "a", "question": "Dublin is the capital of which country?", "answers": ["Ireland"]}]
    got = {
        "a": {
            "answers": ["Ireland is a country in Europe whose capital city is Dublin.", "Iceland", "Ireland"],
            "correct": 0,
        },
        "gone": {"answers": ["x"], "correct": 3},
    }
    assert regrade(got, rows) == 1
    assert got["a"]["correct"] == 2 and got["gone"]["correct"] == 3
