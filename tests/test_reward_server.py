"""``python -m reward_engine.serve``: OpenRLHF's remote reward-model contract, end to end over HTTP on
127.0.0.1 (a real server process, a real engine with the offline grader)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import post, write_offline_config

PROMPT = "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n"


@pytest.fixture
def reward_server(tmp_path):
    config = tmp_path / "reward.yaml"
    write_offline_config(config)
    cmd = [sys.executable, "-m", "reward_engine.serve", "--config", str(config), "--port", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # "... listening on http://127.0.0.1:PORT/get_reward"
        assert "listening on" in line, proc.stderr.read()[-2000:]
        yield line.split()[-1]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_batch_as_openrlhf_sends_it_gets_one_reward_per_query(reward_server) -> None:
    right = PROMPT + "<think>Paris is the capital of France.</think><answer>Paris</answer><|im_end|>"
    wrong = PROMPT + "<think>Lyon is the capital of France.</think><answer>Lyon</answer><|im_end|>"
    idk = PROMPT + "<think>I am not sure.</think><answer>I don't know.</answer><|im_end|>"
    broken = PROMPT + "Paris<|im_end|>"
    as_object = json.dumps({"answers": "Paris", "question": "Capital of France?"})
    labels = ["Paris", '["Paris", "Paname"]', as_object, "Paris"]
    body = {"query": [right, wrong, idk, broken], "prompts": [PROMPT] * 4, "labels": labels}
    status, reply = post(reward_server, body)
    assert status == 200
    rewards = reply["rewards"]
    # KnowRL's arithmetic (format + correctness, no facts here): right 1+2, wrong 1-1, abstain 1+1, no format -1-1
    assert rewards == [3.0, 0.0, 2.0, -2.0] and reply["scores"] == rewards
    assert reply["extra_logs"]["unscored"] == [0.0] * 4 and reply["extra_logs"]["format"][3] == -1.0


@pytest.mark.parametrize(
    "body,message",
    [
        ({"query": ["a"], "prompts": [], "labels": ["x"]}, "differ in length (1, 0, 1)"),
        ({"query": "a", "prompts": ["a"], "labels": ["x"]}, "must hold the lists"),
        ({"query": [1], "prompts": ["a"], "labels": ["x"]}, "item 0: 'query' and 'prompts' must be strings"),
        ({"query": ["a"], "prompts": ["a"], "labels": [{"answer": 1}]}, "item 0: a label must be"),
    ],
)
def test_a_malformed_request_is_a_400_that_says_why(reward_server, body, message) -> None:
    status, reply = post(reward_server, body)
    assert status == 400 and message in reply["error"]


def test_a_title_of_the_wrong_type_refuses_its_item_only(tmp_path) -> None:
    """cb7647b answered the whole request 400 when one label's title was a number or an object; OpenRLHF retried
    it and stopped. That item is now refused alone (paid --unscored-reward, ``bad_input`` 1.0), the rest scored,
    and the problem logged once; a request that cannot be read at all stays a 400."""
    import urllib.request

    from tests.helpers import post

    config = tmp_path / "reward.yaml"
    write_offline_config(config)
    cmd = [sys.executable, "-m", "reward_engine.serve", "--config", str(config), "--port", "0"]
    cmd += ["--unscored-reward", "-0.5"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "listening on" in line, proc.stderr.read()[-2000:]
        url = line.split()[-1]
        right = PROMPT + "<think>Paris is the capital of France.</think><answer>Paris</answer><|im_end|>"
        labels = [
            json.dumps({"answers": "Paris", "title": "Paris"}),
            json.dumps({"answers": "Paris", "title": 7}),
            {"answers": "Paris", "title": {"name": "Paris"}},
            "Paris",
        ]
        for _ in range(2):  # a dataset's bad row comes back every epoch: logged the first time only
            status, reply = post(url, {"query": [right] * 4, "prompts": [PROMPT] * 4, "labels": labels})
            assert status == 200, reply
            assert reply["rewards"] == [3.0, -0.5, -0.5, 3.0] and reply["scores"] == reply["rewards"]
            assert reply["extra_logs"]["bad_input"] == [0.0, 1.0, 1.0, 0.0]
            assert reply["extra_logs"]["unscored"] == [0.0, 1.0, 1.0, 0.0]
            assert all(isinstance(v, float) for values in reply["extra_logs"].values() for v in values)
        status, reply = post(url, {"query": [right], "prompts": [PROMPT], "labels": [labels[1]]})
        assert status == 200 and reply["rewards"] == [-0.5]  # every item refused: no engine call, still a reply
        raw = urllib.request.Request(url, b"not json", {"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(raw, timeout=60)
            raise AssertionError("a body that is not JSON was answered 200")
        except urllib.error.HTTPError as err:
            assert err.code == 400
        status, reply = post(url, {"prompts": [PROMPT], "labels": ["Paris"]})
        assert status == 400 and "must hold the lists" in reply["error"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    told = [line for line in err.splitlines() if "'title'" in line]
    assert len(told) == 2, told  # an int, an object: once each over three requests
    assert "item 1: 'labels': field 'title' must be str or list, got int" in told[0]
