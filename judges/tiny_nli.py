"""A tiny NLI model built on this machine, so two NLI verifiers can be held equal offline.

KnowRL verifies claims with ``MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli`` (a hub download). The
conformance bench and the NLI verifier's tests need *a* model with the same interface that both sides
load from the same files: ``build_tiny_nli`` makes a two-layer DeBERTa-v2 sequence classifier
(labels entailment / neutral / contradiction) with a word-level tokenizer over the given texts, its
classifier scaled so entailment probabilities spread to both ends of (0, 1) instead of sitting near 1/3
(a verdict must never hang on float noise at a 0.3 threshold: most pairs land near 0 or 1; a caller that
knows its pairs can pick the seed that keeps all of them far from its threshold). Its verdicts mean
nothing about language; they are a fixed function of (premise, hypothesis) that both sides compute.
``install_in_hub_cache`` lays the folder out as a hub cache entry, so code that loads the model by its
hub name resolves to it with ``HF_HUB_CACHE`` pointing there and ``HF_HUB_OFFLINE=1``.

    >>> path = build_tiny_nli(tmp / "nli", ["Paris is the capital of France."])  # doctest: +SKIP
    >>> install_in_hub_cache(path, "MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli", tmp / "hub")  # doctest: +SKIP
"""

from __future__ import annotations

import collections
import hashlib
import random
import shutil
from pathlib import Path
from typing import Iterable, Sequence

LABELS = {0: "entailment", 1: "neutral", 2: "contradiction"}
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
MAX_LENGTH = 512
ENTAILMENT_RATE = 0.15  # share of calibration pairs with p(entailment) >= 0.5 (the bias sets it)
LOGIT_SPREAD = 40.0  # std of the entailment logit margin over the calibration pairs (few pairs near any threshold)


def _tokenizer(vocab_texts: Iterable[str]):
    """A lowercasing word-level tokenizer (BERT's punctuation split) with a [CLS] A [SEP] B [SEP] template."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True, clean_text=True)
    splitter = pre_tokenizers.BertPreTokenizer()
    counts: collections.Counter[str] = collections.Counter()
    for text in vocab_texts:
        counts.update(word for word, _ in splitter.pre_tokenize_str(normalizer.normalize_str(text)))
    words = sorted(counts, key=lambda w: (-counts[w], w))
    vocab = {tok: i for i, tok in enumerate(SPECIALS + [w for w in words if w not in SPECIALS])}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.normalizer = normalizer
    tok.pre_tokenizer = splitter
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
    )
    return tok


def _config(vocab_size: int):
    from transformers import DebertaV2Config

    return DebertaV2Config(
        vocab_size=vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=MAX_LENGTH,
        relative_attention=True,  # DeBERTa-v3's attention (p2c, c2p with shared keys)
        pos_att_type=["p2c", "c2p"],
        position_biased_input=False,
        position_buckets=64,
        norm_rel_ebd="layer_norm",
        share_att_key=True,
        max_relative_positions=-1,
        type_vocab_size=0,
        pad_token_id=0,
        initializer_range=0.5,  # large random weights: outputs vary strongly with the input words
        id2label=dict(LABELS),
        label2id={v: k for k, v in LABELS.items()},
    )


def _calibration_pairs(texts: Sequence[str], seed: int, n: int = 256) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    texts = [t for t in texts if t.strip()] or ["calibration text"]
    return [(rng.choice(texts), rng.choice(texts)) for _ in range(n)]


def _margins(model, tokenizer, pairs: list[tuple[str, str]]):
    """Entailment logit minus logsumexp of the other two, for each pair (premise, hypothesis)."""
    import torch

    with torch.no_grad():
        enc = tokenizer([p for p, _ in pairs], [h for _, h in pairs], return_tensors="pt", padding=True)
        logits = model(**enc).logits
    return logits[:, 0] - torch.logsumexp(logits[:, 1:], dim=-1)


def _scale_classifier(model, tokenizer, texts: Sequence[str], seed: int, spread: float) -> None:
    """Scale the classifier so the entailment margin has std ``spread``, and shift the entailment bias so
    ENTAILMENT_RATE of random text pairs come out entailed."""
    import torch

    pairs = _calibration_pairs(texts, seed)
    with torch.no_grad():
        head = model.classifier
        head.bias.zero_()
        measured = float(_margins(model, tokenizer, pairs).std()) or 1.0
        head.weight.mul_(spread / measured)
        head.bias[0] = -float(torch.quantile(_margins(model, tokenizer, pairs), 1 - ENTAILMENT_RATE))


def build_tiny_nli(path: str | Path, vocab_texts: Iterable[str], seed: int = 0, spread: float = LOGIT_SPREAD) -> Path:
    """Write a tiny DeBERTa-v2 NLI classifier and its tokenizer to ``path``; the same texts and seed give the
    same files. ``AutoTokenizer`` / ``AutoModelForSequenceClassification.from_pretrained(path)`` load it
    offline; label 0 is entailment. Words not in ``vocab_texts`` read as [UNK]. ``spread``: the std of the
    entailment logit margin over random pairs of the texts (smaller: more probabilities in the middle)."""
    import torch
    from transformers import DebertaV2ForSequenceClassification, PreTrainedTokenizerFast

    path = Path(path)
    texts = list(vocab_texts)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=_tokenizer(texts),
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=MAX_LENGTH,
    )
    torch.manual_seed(seed)
    model = DebertaV2ForSequenceClassification(_config(len(tokenizer))).eval()
    _scale_classifier(model, tokenizer, texts, seed, spread)
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def install_in_hub_cache(model_dir: str | Path, repo_id: str, cache_dir: str | Path) -> Path:
    """Copy ``model_dir`` into ``cache_dir`` as the hub cache entry of ``repo_id`` (blobs, one snapshot,
    ``refs/main``); returns the snapshot folder. ``from_pretrained(repo_id)`` then finds it offline when
    ``HF_HUB_CACHE`` is ``cache_dir`` (set before huggingface_hub is imported) or ``cache_dir=`` is passed."""
    model_dir = Path(model_dir)
    files = sorted(p for p in model_dir.iterdir() if p.is_file())
    digest = hashlib.sha1()
    for f in files:
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    revision = digest.hexdigest()
    repo = Path(cache_dir) / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / revision
    if snapshot.exists():
        shutil.rmtree(snapshot)
    for folder in (repo / "blobs", repo / "refs", snapshot):
        folder.mkdir(parents=True, exist_ok=True)
    for f in files:
        blob = repo / "blobs" / hashlib.sha256(f.read_bytes()).hexdigest()
        if not blob.exists():
            shutil.copyfile(f, blob)
        (snapshot / f.name).symlink_to(Path("..", "..", "blobs", blob.name))
    (repo / "refs" / "main").write_text(revision)
    return snapshot
