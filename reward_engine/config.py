"""The reward engine's configuration: one validated model, loaded from YAML.

Unknown or misspelt keys are errors that name the key and suggest the closest valid one
(KnowRL's ``swanlab_experiment_name::`` typo silently disabled its logging). Secrets are
never in the config: only the *names* of environment variables that hold them.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import importlib
import json
import logging
import os
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from knowrl_io.paths import expand_path
from knowrl_io.small_files import SmallFileError, read_small_text
from reward_engine.judge.config import Endpoint, JudgeConfig
from reward_engine.plugin_code import plugin_digest
from reward_engine.prompts.files import Templates, load_templates
from reward_engine.semantics import PRESETS, Semantics, semantics
from reward_engine.stages.nli import NLIConfig

log = logging.getLogger(__name__)


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file, key and fix."""


class FactualityConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    enabled: bool = Field(True, description="False: INCORRECT answers get no fact score (reward = incorrect)")
    mode: Literal["staged", "fused"] = Field(
        "staged",
        description="staged (KnowRL's): decompose, retrieve per claim, verify -- two judge round trips; "
        "fused: evidence retrieved up front, claims extracted and labelled in one judge call (needs decomposer "
        "and verifier 'llm')",
    )
    fused_evidence_k: int = Field(10, ge=1, description="fused mode: passages sent with the reasoning")
    kb_path: str | None = Field(None, description="knowledge base file; 'demo' for the offline demo KB")
    source: str | None = Field(
        None,
        description="another knowledge source instead of kb_path: 'package.module:Factory' returning a "
        "retrieval.source.KnowledgeSource (e.g. 'retrieval.http_source:HttpSource' for a search service)",
    )
    source_options: dict[str, Any] = Field(
        default_factory=dict,
        description="keyword arguments for 'source'; an option named path, file or dir, or ending in _path, _file or "
        "_dir (plural too), is a path: relative to the config's folder, as kb_path (a URL is left as written)",
    )
    evidence_k: int = Field(5, ge=1, description="passages of evidence per claim")
    claims_per_call: int = Field(
        8,
        ge=1,
        description="verifier 'llm': claims per verification call (a completion's calls go together); each "
        "verdict quotes its evidence, so one call for many claims outgrows a small judge's reply budget",
    )
    retrieval_mode: Literal["hybrid", "bm25", "dense"] = "hybrid"
    max_reasoning_chars: int = Field(
        32000,
        ge=100,
        description="reasoning beyond this is not decomposed (bounds judge tokens and CPU per completion)",
    )
    max_claims: int | None = Field(
        None, ge=1, description="claims verified per completion; None: the preset's (knowrl: all, as KnowRL)"
    )
    relevance: Literal["question", "off"] | None = Field(
        None,
        description="question: claims sharing no content word with the question/title are left out of the fact "
        "score; off: every claim counts; None: the preset's (knowrl: off, as KnowRL; knowrl-robust: question)",
    )
    grounding: Literal["topic", "off"] | None = Field(
        None,
        description="topic: a supported claim counts only when grounded in the topic's evidence (see "
        "reward_engine/stages/grounding.py); off: the verifier decides; None: the preset's (knowrl: off, as "
        "KnowRL; knowrl-robust: topic)",
    )
    retrieval_query: Literal["topic+claim", "claim"] = Field(
        "topic+claim",
        description="topic+claim: the row's title (or the question when it has none), a space, the claim -- "
        "FActScore's and KnowRL's query; claim: the claim alone",
    )
    nli: NLIConfig = Field(default_factory=lambda: NLIConfig(), description="verifier 'nli' (KnowRL's verifier)")
    offline_threshold: float = Field(0.75, gt=0, le=1, description="offline verifier word coverage")
    cache_dir: str | None = Field(None, description="disk cache of retrieved evidence (default: the judge's cache_dir)")


class PromptFiles(BaseModel):
    """User template files for the judge prompts (see ``reward_engine.prompts.files``)."""

    model_config = ConfigDict(extra="forbid")

    grader: str | None = Field(
        None,
        description="grader template: {question}, {gold}/{target}, "
        "{answer}/{predicted_answer}; e.g. KnowRL's exact grader template",
    )
    decompose: str | None = Field(None, description="decomposition template: {reasoning}")
    verify: str | None = Field(None, description="verification template: {claims}")
    fused: str | None = Field(None, description="fused factuality template: {question}, {evidence}, {reasoning}")


class RewardEngineConfig(BaseModel):
    """Everything the reward engine needs; the YAML keys are these field names."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, hide_input_in_errors=True)

    preset: str = Field("knowrl", description=f"reward semantics preset: {sorted(PRESETS)}")
    semantics: dict[str, Any] = Field(default_factory=dict, description="overrides of the preset's constants")
    rule: str | None = Field(
        None,
        description="the reward rule (reward_engine/rules): graded (KnowRL), ternary (TruthRL, threshold), "
        "binary_rar, or one a plugin registered; unset: the preset's. The preset's constants still apply",
    )
    threshold_t: float | None = Field(
        None,
        gt=0,
        lt=1,
        description="preset 'threshold': the confidence target t (right +1, abstain 0, wrong -t/(1-t)); answering "
        "pays only where p(right) > t. 0.5 is TruthRL's bar, 2/3 KnowRL's",
    )
    abstain_ramp_steps: int | None = Field(
        None,
        ge=1,
        description="training only: an abstention pays a wrong answer's reward at step 0, rising linearly to the "
        "preset's value at this step (explore first: the policy keeps sampling answers while it learns what it "
        "knows, instead of every group settling on 'I don't know'); unset: the preset's value from the start",
    )
    grader: str = Field("offline", description="offline rules or the LLM judge ('llm'); or a registered grader")
    grader_calls: Literal["one", "two"] = Field(
        "one",
        description="the LLM grader: one call (read the answer and compare it with the gold at once: strong "
        "judges), or two (read the answer without the gold, then compare the span read with the gold: small "
        "local judges, which let the gold lead their reading; up to twice the grader calls)",
    )
    grader_aliases: Literal["off", "kb"] = Field(
        "off",
        description="the LLM grader: kb takes an answer the judge calls wrong as CORRECT when it commits to one "
        "name only and the first sentence of the gold's page in the knowledge base gives that name as the gold's "
        "('Beijing, previously romanized as Peking, is ...'): small judges miss aliases they do not know. Needs "
        "factuality.kb_path or factuality.source (the gold's page looked up by title)",
    )
    decomposer: str = Field("offline", description="offline rules or the LLM judge ('llm'); or a registered one")
    verifier: str = Field(
        "offline",
        description="offline rules, the LLM judge, an NLI model (KnowRL's; see factuality.nli), or a registered "
        "verifier (reward_engine.stages.registry)",
    )
    plugins: list[str] = Field(
        default_factory=list,
        description="modules imported before the stages are looked up: where a user's @register'ed graders, "
        "decomposers and verifiers live, so the command lines (score, warm, train) can name them",
    )
    judge: JudgeConfig | None = Field(None, description="required when any stage is 'llm' (unless 'judges' names it)")
    judges: dict[Literal["grade", "decompose", "verify"], JudgeConfig] = Field(
        default_factory=dict,
        description="a judge of its own for a stage, as KnowRL's scripts split them (one endpoint and key for "
        "grading, another for FActScore's decomposition), each with its own budget and cache; a stage not named "
        "here uses 'judge'. Fused factuality (one call for claims and verdicts) uses 'decompose'",
    )
    factuality: FactualityConfig = Field(default_factory=FactualityConfig)
    prompts: PromptFiles = Field(
        default_factory=PromptFiles, description="judge templates from files; their hash is part of the cache key"
    )
    max_answer_chars: int = Field(
        2000, ge=10, description="the answer sent to the grader is cut to this, keeping its start and end"
    )
    step_timeout_s: float = Field(120.0, gt=0, description="a batch answers within this budget, None for the rest")
    speculate: bool = Field(
        True,
        description="with the LLM grader, start factuality at once for answers the offline grader calls "
        "INCORRECT (one round trip less per step; a disagreement wastes at most 2 calls, counted)",
    )
    drop_unscored: bool = Field(
        True,
        description="TRL functions: a completion without a correctness reward gets None for format too "
        "(zero advantage). False keeps the format signal while the judge is down; pair it with "
        "grpo.multi_objective_aggregation: normalize_then_sum, where a None is neutral",
    )
    world_size: int = Field(1, ge=1, description="processes sharing the judge's rate budget (set by the trainer)")
    rank: int = Field(0, ge=0, description="this process's index among world_size (set by the trainer)")
    _templates: Templates | None = PrivateAttr(None)
    _templates_from: tuple[str | None, ...] = PrivateAttr(())

    @model_validator(mode="after")
    def _check(self) -> "RewardEngineConfig":
        sem = self.reward_semantics  # raises on an unknown preset or constant
        from reward_engine.rules import registry as rules  # the rules, and any a user's module registered
        from reward_engine.stages import registry  # the stages, likewise

        import_plugins(self.plugins)
        rules.build(sem.rule, sem).check(self)  # an unknown rule, or a config the rule cannot be served by
        if self.grader_calls == "two" and self.prompts.grader:
            raise ValueError("grader_calls 'two' uses the engine's own read and compare prompts: drop prompts.grader")
        for setting in registry.KINDS:
            if getattr(self, setting) not in registry.names(setting):
                raise ValueError(
                    f"{setting} {getattr(self, setting)!r} is not registered; registered: {registry.names(setting)}"
                )
        for stage, setting in STAGE_SETTINGS.items():
            if getattr(self, setting) == "llm" and self.judge is None and stage not in self.judges:
                raise ValueError(f"{setting} 'llm' needs a 'judge' section (or judges.{stage})")
        if self.factuality.enabled and not (self.factuality.kb_path or self.factuality.source):
            raise ValueError(
                "factuality.enabled needs factuality.kb_path or factuality.source (or set factuality.enabled: false)"
            )
        if self.grader_aliases == "kb" and self.grader != "llm":
            raise ValueError("grader_aliases 'kb' overrules an LLM judge's grade: set grader 'llm' (or drop it)")
        if self.grader_aliases == "kb" and not (self.factuality.kb_path or self.factuality.source):
            raise ValueError("grader_aliases 'kb' reads the gold's page: set factuality.kb_path or factuality.source")
        if self.factuality.mode == "fused" and (self.decomposer, self.verifier) != ("llm", "llm"):
            raise ValueError(
                "factuality.mode 'fused' extracts and verifies claims in one judge call: set "
                "decomposer and verifier to 'llm' (or use mode 'staged')"
            )
        return self

    def templates(self) -> Templates:
        """The judge templates: the project's own, with any given as a file replaced by it (read once)."""
        files = (self.prompts.grader, self.prompts.decompose, self.prompts.verify, self.prompts.fused)
        if self._templates is None or self._templates_from != files:
            self._templates = load_templates(*files)
            self._templates_from = files
        return self._templates

    def fingerprint(self, with_kb_path: bool = False) -> str:
        """A hash of what decides a reward (not limits, timeouts, cache folders or where the KB lies: a job keys
        its rows to the KB's content, ``job.job_fingerprint``): rows scored under another fingerprint must not be
        mixed with these (``reward_engine.score`` refuses to resume them). ``with_kb_path``: as it was before the
        path left it (hostile pass 11: a KB copied elsewhere refused the job's own rows), to adopt older records."""
        judge = self.judge
        sem = self.reward_semantics.model_dump(
            exclude=None if self.reward_semantics.threshold_t is not None else {"threshold_t"}
        )  # threshold_t unset leaves every older fingerprint as it was
        if sem["rule"] == "ternary" and sem["fact_weight"] == 0:
            sem["rule"] = "graded"  # pays what 'graded' paid with no fact term (before the rules): same rows
        decides = {
            "semantics": sem,
            "stages": [self.grader, self.decomposer, self.verifier],
            # a custom source's options say which corpus it reads (a version may not: hostile pass 60 switched
            # corpora and kept the rows), so they are part of it when given; unset, the new fields leave every
            # older fingerprint as it was (a hash: a token in an option is never shown)
            "factuality": self.factuality.model_dump(
                exclude={
                    "cache_dir",
                    *(() if self.factuality.source and self.factuality.source_options else ("source_options",)),
                    *(() if with_kb_path else ("kb_path",)),
                    *(() if self.factuality.source else ("source",)),
                    *(() if self.verifier == "llm" else ("claims_per_call",)),  # what an llm verifier is shown
                }
            ),
            "templates": [getattr(self.templates(), f.name).version for f in dataclasses.fields(Templates)],
            "max_answer_chars": self.max_answer_chars,
            "judge": _decides(judge),
        }
        if self.judges:  # absent when unused: fingerprints of configs without stage judges stay as they were
            decides["judges"] = {stage: _decides(j) for stage, j in sorted(self.judges.items())}
        if self.plugins:  # the stages a plugin registers decide rewards too (hostile pass 10), and so does their
            # code (pass 12: a plugin edited in place resumed the rows its old code scored), its package's and the
            # helpers it imports beside it included (pass 59: ``plugin_code``); none: as before
            decides["plugins"] = [[name, plugin_digest(name)] for name in self.plugins]
        for name, default in (("grader_calls", "one"), ("grader_aliases", "off")):  # how the grade is reached
            if getattr(self, name) != default:
                decides[name] = getattr(self, name)
        return hashlib.sha256(json.dumps(decides, sort_keys=True, default=str).encode()).hexdigest()[:16]

    @property
    def reward_semantics(self) -> Semantics:
        """The preset's constants with the ``semantics`` overrides, and ``factuality.relevance``/``max_claims``/
        ``grounding`` when set (they are claim policy: part of the reward)."""
        fc = self.factuality
        policy = (("relevance", fc.relevance), ("max_claims", fc.max_claims), ("grounding", fc.grounding))
        claim_policy = {k: v for k, v in policy if v is not None}
        if self.threshold_t is not None and self.preset != "threshold":
            raise ValueError(f"threshold_t sets the 'threshold' preset's bar; preset is {self.preset!r}")
        target = {} if self.threshold_t is None else {"threshold_t": self.threshold_t}
        rule = {} if self.rule is None else {"rule": self.rule}
        return semantics(self.preset, **{**claim_policy, **target, **rule, **self.semantics})

    def check_world_size(self, world_size: int) -> None:
        """Every ``limits.rank_weights`` holds one weight per process of a launch of ``world_size`` (checked
        before anything loads; a single process ignores the weights)."""
        if world_size <= 1:
            return
        named = [("judge", self.judge), *((f"judges.{k}", v) for k, v in self.judges.items())]
        for name, judge in named:
            weights = judge.limits.rank_weights if judge is not None and judge.limits is not None else None
            if weights and len(weights) != world_size:
                raise ConfigError(
                    f"{name}.limits.rank_weights has {len(weights)} weights for {world_size} processes "
                    "(WORLD_SIZE): one per rank"
                )

    def judge_for_rank(self, stage: str | None = None) -> JudgeConfig | None:
        """The judge config (``stage``'s own when ``judges`` names it) with per-minute budgets divided across
        ``world_size`` processes; with shared limits (``judge.limits``) the budget stays whole, counted in
        Redis, and 1/world_size is only the fallback."""
        judge = self.judges.get(stage, self.judge) if stage else self.judge  # type: ignore[call-overload]
        if judge is None or self.world_size == 1:
            return judge
        if judge.limits is not None:
            update: dict[str, Any] = {"fallback_share": 1.0 / self.world_size}
            weights = judge.limits.rank_weights
            if weights:
                if len(weights) != self.world_size:
                    raise ValueError(
                        f"judge.limits.rank_weights has {len(weights)} weights for {self.world_size} ranks"
                    )
                update["weight"] = weights[self.rank]
            return judge.model_copy(update={"limits": judge.limits.model_copy(update=update)})
        share = {}
        for key in ("requests_per_minute", "tokens_per_minute"):
            value = getattr(judge, key)
            if value:
                share[key] = value / self.world_size
        return judge.model_copy(update=share)


# the config's stage names (judges.<stage>) and the settings that choose each stage's kind
STAGE_SETTINGS = {"grade": "grader", "decompose": "decomposer", "verify": "verifier"}


def _decides(judge: JudgeConfig | None) -> dict[str, Any] | None:
    """What of a judge decides its answers (models, sampling, reply form): part of the fingerprint."""
    if judge is None:
        return None
    return {
        "models": [e.model for e in judge.endpoints],
        **judge.model_dump(include={"temperature", "max_tokens", "seed", "structured_output", "schema_format"}),
    }


def _env_judge(data: dict[str, Any]) -> dict[str, Any]:
    """Fill endpoint fields given as ``${VAR}`` from the environment (URLs and model names only)."""
    stages = data.get("judges")
    judges = [data.get("judge"), *(stages.values() if isinstance(stages, dict) else [])]
    for judge in judges:
        if not isinstance(judge, dict):
            continue
        for endpoint in judge.get("endpoints", []) or []:
            if not isinstance(endpoint, dict):
                continue
            for key in ("base_url", "model"):
                value = endpoint.get(key)
                if isinstance(value, str) and value.startswith("${") and value.endswith("}"):
                    name = value[2:-1]
                    if name not in os.environ:
                        raise ConfigError(f"judge endpoint {key} comes from ${{{name}}}, which is not set")
                    endpoint[key] = os.environ[name]
    return data


def _suggest(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """'did you mean ...' for an unknown key at ``loc``, walking nested models."""
    current: Any = model
    for part in loc[:-1]:
        fields = getattr(current, "model_fields", {})
        if part in fields:
            annotation = fields[part].annotation
            current = next(
                (a for a in getattr(annotation, "__args__", (annotation,)) if hasattr(a, "model_fields")), annotation
            )
    names = list(getattr(current, "model_fields", {}))
    close = difflib.get_close_matches(str(loc[-1]), names, n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else f"; valid keys: {', '.join(names)}"


def format_validation_error(exc: ValidationError, source: str, model: type[BaseModel]) -> str:
    lines = [f"invalid config {source}:"]
    for err in exc.errors():
        loc = tuple(err["loc"])
        where = ".".join(str(p) for p in loc) or "(top level)"
        if err["type"] == "extra_forbidden":
            lines.append(f"  unknown key '{where}'{_suggest(model, loc)}")
        else:
            lines.append(f"  {where}: {err['msg']}{_got(loc, err.get('input'))}")
    return "\n".join(lines)


_SECRET_PARTS = ("url", "key", "token", "password", "secret")


def _got(loc: tuple[Any, ...], value: Any) -> str:
    """The offending value when it is a scalar, cut before it is rendered (a billion-laughs YAML must never
    become text), and withheld under keys that may carry credentials (a ``base_url`` from the environment)."""
    if any(isinstance(p, str) and any(k in p.lower() for k in _SECRET_PARTS) for p in loc):
        return ""
    if isinstance(value, str):
        return f" (got {value[:80]!r}{'...' if len(value) > 80 else ''})"
    return f" (got {value!r})" if isinstance(value, (int, float, bool)) or value is None else ""


class YamlLoader(yaml.SafeLoader):
    """Safe YAML that reads ``1e-5`` as a number (YAML 1.1, PyYAML's default, wants ``1.0e-5`` and
    otherwise hands a learning rate to the optimizer as text, where it fails far from the config), and
    refuses a document that expands to more than ``MAX_NODES`` nodes through aliases (a billion-laughs
    file is a few lines that grow to gigabytes when used)."""

    MAX_NODES = 100_000

    def compose_node(self, parent: Any, index: Any) -> Any:
        node = super().compose_node(parent, index)
        sizes = self.__dict__.setdefault("_sizes", {})
        if isinstance(node, yaml.SequenceNode):
            size = 1 + sum(sizes.get(id(child), 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            size = 1 + sum(sizes.get(id(k), 1) + sizes.get(id(v), 1) for k, v in node.value)
        else:
            size = 1
        if size > self.MAX_NODES:
            raise yaml.YAMLError(f"the document expands to more than {self.MAX_NODES} values through aliases")
        sizes[id(node)] = size
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """A key given twice is an error (YAML resolves it silently to the last, hiding the first)."""
        seen: dict[Any, Any] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (first on line {seen[key].line + 1})", key_node.start_mark
                )
            if isinstance(key, (str, int, float, bool)):
                seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


YamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float", re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)[eE][-+]?\d+$"), list("-+0123456789.")
)


def yaml_value(text: str) -> Any:
    return yaml.load(text, Loader=YamlLoader)  # noqa: S506 - a SafeLoader subclass


def load_yaml(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file not found: {path}")
    try:
        data = yaml_value(read_small_text(path)) or {}
    except SmallFileError as exc:
        raise ConfigError(f"config {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"config {where}: not valid YAML: {problem}") from None
    except RecursionError:
        raise ConfigError(f"config {path} is nested too deeply to be a config") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {path}: expected a mapping at the top level, got {type(data).__name__}")
    return data


# A source option that names a file or folder, by its key: resolved like kb_path (see ``source_option_paths``)
PATH_OPTION = re.compile(r"(?:.+_)?(?:path|file|dir)s?")


def source_option_paths(options: dict[str, Any], base_dir: Path | None) -> dict[str, Any]:
    """``factuality.source_options`` with its paths resolved as ``kb_path`` is: an option whose key is ``path``,
    ``file`` or ``dir``, or ends in ``_path``, ``_file`` or ``_dir`` (each also plural, holding a list), is a path
    when its value is a string that is not a URL (no ``://``): ``~`` expanded, a relative one taken against the
    config file's folder (``base_dir``; None: left relative, to the working directory). Other options are the
    factory's own business and pass as written. A rule by name, so the config is read without importing the
    source's module (a Ray actor or verl worker may be the only place it imports).

    >>> source_option_paths({"path": "kb.jsonl", "url": "http://h:1/x", "index_dir": "/abs", "k": 3}, Path("/cfg"))
    {'path': '/cfg/kb.jsonl', 'url': 'http://h:1/x', 'index_dir': '/abs', 'k': 3}
    >>> source_option_paths({"files": ["a.jsonl", "https://h/b"], "profile": "p"}, Path("/cfg"))
    {'files': ['/cfg/a.jsonl', 'https://h/b'], 'profile': 'p'}
    """

    def one(value: Any) -> Any:
        return _resolve(value, base_dir) if isinstance(value, str) and value and "://" not in value else value

    out: dict[str, Any] = {}
    for key, value in options.items():
        if isinstance(key, str) and PATH_OPTION.fullmatch(key):
            value = [one(v) for v in value] if isinstance(value, list) else one(value)
        out[key] = value
    return out


def _resolve(path: str, base_dir: Path | None) -> str:
    """``~`` and environment variables expanded (an unset one is a ``ConfigError``); a relative path is relative
    to the config file's folder."""
    try:
        resolved = Path(expand_path(path))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if base_dir is not None and not resolved.is_absolute():
        resolved = (base_dir / resolved).resolve()
    return str(resolved)


USER_CACHE = "${KNOWRL_CACHE_DIR}"


def _user_cache(path: str) -> str:
    """A ``cache_dir`` that starts with ``${KNOWRL_CACHE_DIR}`` lies in the user cache every other cache uses
    (``knowrl_io.paths.cache_dir``: the variable, else ``$XDG_CACHE_HOME/knowrl``, else ``~/.cache/knowrl``): a
    shipped config that wrote ``~/.cache/knowrl/judge`` cached there although ``KNOWRL_CACHE_DIR`` was set."""
    if path != USER_CACHE and not path.startswith(USER_CACHE + "/"):
        return path
    from knowrl_io.paths import cache_dir

    return str(cache_dir()) + path[len(USER_CACHE) :]


def import_plugins(modules: list[str]) -> None:
    """Import each module of ``plugins`` (its ``@register`` decorators run on import); a module that does not
    import is a config error naming it, not a traceback."""
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as exc:  # noqa: BLE001 - whatever a user's module raises, the config names it
            raise ValueError(f"plugins: cannot import {module!r}: {type(exc).__name__}: {exc}") from None


def parse_reward_config(
    data: dict[str, Any], source: str = "<dict>", base_dir: Path | None = None
) -> RewardEngineConfig:
    """Validate a mapping; relative paths are taken relative to ``base_dir`` (the config's folder)."""
    data = _env_judge(dict(data))
    try:
        config = RewardEngineConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, source, RewardEngineConfig)) from None
    fc = config.factuality
    if fc.kb_path and fc.kb_path != "demo":
        fc.kb_path = _resolve(fc.kb_path, base_dir)
    if fc.source_options:  # a custom source's files, like kb_path: against the config's folder
        fc.source_options = source_option_paths(fc.source_options, base_dir)
    if fc.cache_dir:
        fc.cache_dir = _resolve(_user_cache(fc.cache_dir), base_dir)
    for judge in (config.judge, *config.judges.values()):
        if judge is not None and judge.cache_dir:
            judge.cache_dir = _resolve(_user_cache(judge.cache_dir), base_dir)
    for kind in ("grader", "decompose", "verify", "fused"):
        path = getattr(config.prompts, kind)
        if path:
            setattr(config.prompts, kind, _resolve(path, base_dir))
    try:
        config.templates()  # a missing file or an unknown field is a config error now, not at the first call
    except ValueError as exc:
        raise ConfigError(f"invalid config {source}: {exc}") from None
    return config


def load_reward_config(path: str | Path) -> RewardEngineConfig:
    """A reward config from its own YAML file, or from the ``reward`` section of a training config."""
    path = Path(path)
    data = load_yaml(path)
    if "reward" in data and isinstance(data["reward"], dict):
        data = data["reward"]
    return parse_reward_config(data, str(path), path.parent)


def warn_training_only(config: RewardEngineConfig, entry: str) -> None:
    """One warning for each key ``config`` sets that only ``knowrl.train`` applies, which ``entry`` (a job, a server
    or another trainer's adapter, none with TRL's step) does not: a training config is rightly reused there, but
    what it pays differs from what the config says (hostile pass 55: serve paid "I don't know" the unramped value,
    silently)."""
    if config.abstain_ramp_steps is not None:
        log.warning(
            "%s: abstain_ramp_steps (%d) is not applied here: only knowrl.train ramps it (by TRL's step); an "
            "abstention is paid the preset's value",
            entry,
            config.abstain_ramp_steps,
        )


def load_reward_config_or_report(path: str | Path) -> RewardEngineConfig | None:
    """For CLIs: the config, or None after printing the error (the caller exits with 2)."""
    import sys

    try:
        return load_reward_config(path)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


__all__ = [
    "ConfigError",
    "Endpoint",
    "FactualityConfig",
    "JudgeConfig",
    "RewardEngineConfig",
    "load_reward_config",
    "parse_reward_config",
    "warn_training_only",
]
