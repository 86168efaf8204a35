"""Mechanism check for the H100 NaN (docs/dev/gpu-runbook.md): SDPA backward with a padding mask, per backend.

    python bench/gpu_attention_nan.py          # on a CUDA machine; one JSON line per case

Qwen2.5-Coder-1.5B's attention shape (12 query heads, 2 KV heads, head dim 128), batch 4, right padding.
For each dtype and padded length: NaN in dQ/dK/dV with cuDNN forced, with PyTorch's default choice, and
inside knowrl.accelerator.training_attention(). Prints one JSON line per case.
"""

import contextlib
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, ".")
from knowrl.accelerator import training_attention  # noqa: E402

dev = "cuda"
print(
    json.dumps(
        {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "cudnn": torch.backends.cudnn.version()}
    )
)


def case(dtype, length, ctx_name):
    torch.manual_seed(0)
    b, hq, hkv, d = 4, 12, 2, 128
    q = torch.randn(b, hq, length, d, device=dev, dtype=dtype, requires_grad=True)
    k = torch.randn(b, hkv, length, d, device=dev, dtype=dtype)
    v = torch.randn(b, hkv, length, d, device=dev, dtype=dtype)
    k = k.repeat_interleave(hq // hkv, 1).requires_grad_(True)
    v = v.repeat_interleave(hq // hkv, 1).requires_grad_(True)
    lengths = torch.tensor([length, length - 37, length - 90, length - 150], device=dev).clamp(min=8)
    keep = torch.arange(length, device=dev)[None, :] < lengths[:, None]  # right padding
    causal = torch.ones(length, length, dtype=torch.bool, device=dev).tril()
    mask = (keep[:, None, None, :] & causal[None, None]).expand(b, 1, length, length)
    ctx = {
        "cudnn forced": lambda: sdpa_kernel([SDPBackend.CUDNN_ATTENTION]),
        "default": contextlib.nullcontext,
        "training_attention": training_attention,
    }[ctx_name]
    try:
        with ctx():
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
            loss = out[keep[:, None, :, None].expand_as(out)].float().pow(2).mean()
            loss.backward()
        nan = {n: int(torch.isnan(t.grad).sum()) for n, t in (("dq", q), ("dk", k), ("dv", v))}
        r = {"ok": True, "nan": nan, "loss_finite": bool(torch.isfinite(loss))}
    except Exception as e:  # a backend that refuses the inputs
        r = {"ok": False, "error": str(e).splitlines()[0][:160]}
    print(json.dumps({"dtype": str(dtype).split(".")[-1], "padded_len": length, "attention": ctx_name, **r}))


for dtype in (torch.bfloat16, torch.float32):
    for length in (128, 192, 256, 320):
        for ctx_name in ("cudnn forced", "default", "training_attention"):
            case(dtype, length, ctx_name)
