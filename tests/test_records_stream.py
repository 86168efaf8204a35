"""JSON arrays are read element by element from a stream: the values are json.loads' values whatever the chunk
boundaries, positions stay right, and memory follows the largest element, not the file."""

from __future__ import annotations

import json
import random
import tracemalloc

from knowrl_io.records import iter_records


def test_values_and_positions_survive_chunk_boundaries(tmp_path) -> None:
    rng = random.Random(0)
    values = []
    for i in range(3000):  # numbers of every length land on the 64 KiB, 128 KiB, ... chunk edges
        kind = i % 4
        if kind == 0:
            values.append(rng.randrange(10 ** rng.randrange(1, 300)))
        elif kind == 1:
            values.append({"id": i, "text": "é" * rng.randrange(0, 400), "f": rng.random()})
        elif kind == 2:
            values.append([True, None, False, "x" * rng.randrange(0, 90)])
        else:
            values.append({"big": "z" * rng.randrange(0, 200_000)})  # larger than a first chunk
    path = tmp_path / "a.json"
    path.write_text(json.dumps(values, ensure_ascii=False), encoding="utf-8")
    records = list(iter_records(path))
    assert [r.value for r in records] == values
    assert [r.line for r in records] == list(range(1, len(values) + 1)) and {r.text_line for r in records} == {1}
    assert all(r.error is None for r in records)


def test_a_bad_element_mid_file_is_one_bad_record_and_the_rest_are_read(tmp_path) -> None:
    good = [{"id": i, "pad": "p" * 50_000} for i in range(6)]
    text = "[\n" + ",\n".join(json.dumps(v) for v in good[:3]) + ',\n{"id": oops},\n'
    text += ",\n".join(json.dumps(v) for v in good[3:]) + "\n]\n"
    path = tmp_path / "a.json"
    path.write_text(text)
    records = list(iter_records(path))
    assert [r.value["id"] for r in records if r.error is None] == [0, 1, 2, 3, 4, 5]
    (bad,) = [r for r in records if r.error]
    assert bad.line == 4 and bad.text_line == 5 and "invalid JSON" in bad.error


def test_bytes_that_are_not_utf8_are_one_record_and_the_rest_still_read(tmp_path) -> None:
    body = b'[{"id": 1, "t": "' + b"a" * 100_000 + b'"}, {"id": 2, "t": "caf\xe9"}, {"id": 3}]'
    path = tmp_path / "a.json"
    path.write_bytes(body)
    records = list(iter_records(path))
    assert [r.value["id"] for r in records if r.error is None] == [1, 2, 3]
    assert sum("not valid UTF-8" in (r.error or "") for r in records) == 1


def _peak_reading(path) -> tuple[int, int]:
    tracemalloc.start()
    try:
        count = sum(1 for r in iter_records(path) if r.error is None)
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_follows_the_largest_element_not_the_file(tmp_path) -> None:
    """The whole array was read into memory (bytes, then text: about 2x the file)."""
    row = json.dumps({"question": "q" * 900, "answers": "a", "completion": "c" * 900})
    peaks = {}
    for rows in (20_000, 40_000):  # ~35 and ~70 MB on one line, as json.dump writes it
        path = tmp_path / f"big{rows}.json"
        path.write_text("[" + ", ".join([row] * rows) + "]")
        count, peaks[rows] = _peak_reading(path)
        assert count == rows
        path.unlink()
    assert peaks[40_000] < 1.25 * peaks[20_000], peaks  # flat: twice the file, not twice the memory
    assert peaks[40_000] < 32 * 2**20, peaks  # chunks of at most 4 MiB, a few of them alive at once


def _good(records) -> list:
    return [r.value for r in records if r.error is None]


def test_a_deeply_nested_element_is_one_bad_record_and_the_rows_after_it_are_kept(tmp_path) -> None:
    """The nesting / huge-number branch resumed only within the chunk in hand: the rows after it vanished."""
    path = tmp_path / "a.json"
    path.write_text("[\n" + "[" * 100_000 + "]" * 100_000 + ',\n{"ok": 1},\n{"ok": 2}]')
    records = list(iter_records(path))
    assert _good(records) == [{"ok": 1}, {"ok": 2}] and sum(r.error is not None for r in records) == 1


def test_a_file_cut_inside_a_character_is_a_bad_record_not_a_traceback(tmp_path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b'[{"ok": 1},\n{"q": "caf\xc3')
    records = list(iter_records(path))
    assert _good(records) == [{"ok": 1}] and any("UTF-8" in (r.error or "") for r in records)


def test_a_number_cut_at_a_chunk_edge_is_read_whole(tmp_path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[" + " " * 65_533 + "1.5e3, 2]")  # the first 64 KiB chunk ends inside "1.5e3"
    assert _good(iter_records(path)) == [1500.0, 2]


def test_a_bad_row_does_not_read_the_rest_of_the_file_into_memory(tmp_path) -> None:
    row = json.dumps({"question": "q" * 900, "completion": "c" * 900})
    path = tmp_path / "a.json"
    path.write_text('[\n{"broken": oops},\n' + ",\n".join([row] * 20_000) + "\n]")
    count, peak = _peak_reading(path)
    assert count == 20_000 and peak < 32 * 2**20, peak


def test_jsonl_whose_first_row_is_a_long_list_keeps_every_row(tmp_path) -> None:
    """The first line was judged from a 4 KiB peek: a longer list line made the file one array."""
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(list(range(3000))) + "\n" + "".join(json.dumps({"id": i}) + "\n" for i in range(5)))
    records = list(iter_records(path))
    assert [r.line for r in records] == [1, 2, 3, 4, 5, 6] and records[0].error is None
    assert _good(records)[1:] == [{"id": i} for i in range(5)]


def test_a_consumer_that_leaves_early_lets_the_reading_thread_go() -> None:
    """The reader waited for ever on a full queue once its consumer stopped (a failed batch)."""
    import asyncio
    import threading

    from knowrl_io.threaded import in_daemon_thread

    finished = threading.Event()

    def rows():
        try:
            yield from range(1_000_000)
        finally:
            finished.set()

    async def take_two() -> list[int]:
        got = []
        async for row in in_daemon_thread(rows(), ahead=1):
            got.append(row)
            if len(got) == 2:
                break
        return got

    assert asyncio.run(take_two()) == [0, 1]
    assert finished.wait(10), "the reading thread is still blocked"


def test_a_bom_at_the_start_of_a_later_line_is_read_as_the_first_lines_is(tmp_path) -> None:
    """Hostile pass 7 (I02): two files joined with ``cat`` put the second's BOM mid-file; its row was bad input."""
    path = tmp_path / "joined.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\n\xef\xbb\xbf{"a": 2}\n')
    assert [(r.line, r.value, r.error) for r in iter_records(path)] == [(1, {"a": 1}, None), (2, {"a": 2}, None)]


def test_rows_ended_by_lone_carriage_returns_are_named_as_such(tmp_path) -> None:
    """Hostile pass 7 (I01): a classic-Mac file (CR only) was one bad row, "Extra data"; the message now names the
    line endings and how to convert them."""
    path = tmp_path / "mac.jsonl"
    path.write_bytes(b'{"a": 1}\r{"a": 2}\r')
    (record,) = list(iter_records(path))
    assert record.value is None and "lone carriage returns" in record.error and "tr '\\r' '\\n'" in record.error
