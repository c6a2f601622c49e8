#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch twin of tests/bench/bench_decode.cpp (issue 35): the same generation in plain PyTorch.

The reference transformer's architecture (core/reference/model.cpp) at bench_decode's shape: token
embedding, n_layers pre-norm blocks of RMSNorm -> fused Q|K|V projection -> RoPE on interleaved
pairs -> causal attention -> output projection -> residual -> RMSNorm -> SwiGLU with a fused w1|w3
-> w2 -> residual; final RMSNorm and an untied LM head; no biases; untrained weights. Generation as
bench_decode runs it: batch 1, greedy, the prompt in one forward pass that fills a KV cache
preallocated for the whole context (one (heads, context, head_dim) K and V tensor per layer), then
one token per step attending to the cache. Attention is written as explicit products (Q.K^T,
softmax, P.V), as the reference computes it; everything under torch.inference_mode().

Prints one JSON object: threads, blas_threads, prompt_tokens, new_tokens, prefill_seconds (the timed prefill, after
one untimed warm-up prefill) and decode_tokens_per_second (new_tokens over the decode loop's time).

Not a test dependency: bench_decode runs it only where Debian's python3-torch is installed
(/usr/bin/python3; the pyenv python3 has no torch):
    /usr/bin/python3 tools/pytorch_decode_twin.py --prompt 800 --new-tokens 200 --threads 1
"""

import argparse
import json
import math
import os
import sys
import time


def prepare_openblas(threads, as_installed=False):
    """Give PyTorch's BLAS its best kernels and the run's thread count, before torch is imported.

    Debian's PyTorch 1.13 calls OpenBLAS (python3-torch with libopenblas0-pthread; with the reference
    libblas3 every product is several times slower). OpenBLAS picks its kernels from the CPU model, and
    a virtual machine that hides the model ("Intel(R) Xeon(R) Processor") gets the generic Prescott
    ones: measured here, a matrix-vector product ran at 6 GB/s with them and 23 GB/s with SkylakeX's.
    So the kernels are chosen from the instruction-set flags instead, unless the caller set
    OPENBLAS_CORETYPE. OpenBLAS also runs its own thread pool beside PyTorch's OpenMP threads: it gets
    the same count. With as_installed (--blas-as-installed) OpenBLAS keeps its own choice: PyTorch as
    Debian installs it on this machine."""
    if "OPENBLAS_CORETYPE" not in os.environ and not as_installed:
        try:
            with open("/proc/cpuinfo") as cpuinfo:
                flags = next((line.split() for line in cpuinfo if line.startswith("flags")), [])
        except OSError:
            flags = []
        if "avx512f" in flags:
            os.environ["OPENBLAS_CORETYPE"] = "SkylakeX"
        elif "avx2" in flags:
            os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    os.environ["OPENBLAS_NUM_THREADS"] = str(threads)
    os.environ["OMP_NUM_THREADS"] = str(threads)


def argument(name, default):
    for i, arg in enumerate(sys.argv):
        if arg == name and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default


prepare_openblas(argument("--blas-threads", argument("--threads", "1")), "--blas-as-installed" in sys.argv)
import torch  # noqa: E402  (after the environment above)


def linear(x, w):
    """x (T, d_in) @ w (d_out, d_in).T; one row as torch.mv, which OpenBLAS runs as a matrix-vector
    product (sgemv, 23 GB/s here), where x @ w.t() with T = 1 goes through sgemm at 6 GB/s."""
    if x.shape[0] == 1:
        return torch.mv(w, x[0])[None, :]
    return x @ w.t()


class Twin:
    def __init__(self, layers, d_model, heads, d_ff, vocab, context, seed=0):
        self.layers, self.d, self.h, self.f, self.v, self.context = layers, d_model, heads, d_ff, vocab, context
        self.dh = d_model // heads
        g = torch.Generator().manual_seed(seed)

        # The CS336 scales, N(0, 2/(d_in + d_out)) for linear layers and N(0, 1) for the embedding,
        # clamped at 3 sigma rather than resampled: the values do not change the speed measured.
        def linear(d_out, d_in):
            return torch.randn(d_out, d_in, generator=g).clamp_(-3, 3) * math.sqrt(2.0 / (d_in + d_out))

        self.embedding = torch.randn(vocab, d_model, generator=g).clamp_(-3, 3)
        self.blocks = []
        for _ in range(layers):
            self.blocks.append({
                "ln1": torch.ones(d_model),
                "wqkv": linear(3 * d_model, d_model),
                "wo": linear(d_model, d_model),
                "ln2": torch.ones(d_model),
                "w13": linear(2 * d_ff, d_model),
                "w2": linear(d_model, d_ff),
            })
        self.ln_final = torch.ones(d_model)
        self.head = linear(vocab, d_model)
        # RoPE tables for every position, theta 10000, interleaved pairs (2i, 2i+1).
        inv = 1.0 / (10000.0 ** (torch.arange(0, self.dh, 2, dtype=torch.float32) / self.dh))
        angles = torch.arange(context, dtype=torch.float32)[:, None] * inv[None, :]  # (context, Dh/2)
        self.cos, self.sin = angles.cos(), angles.sin()
        self.k_cache = [torch.zeros(heads, context, self.dh) for _ in range(layers)]
        self.v_cache = [torch.zeros(heads, context, self.dh) for _ in range(layers)]

    @staticmethod
    def rms_norm(x, gain, eps=1e-5):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * gain

    def rope(self, x, first):  # x (T, H, Dh) at positions first .. first + T - 1
        t = x.shape[0]
        cos = self.cos[first:first + t, None, :]
        sin = self.sin[first:first + t, None, :]
        even, odd = x[..., 0::2], x[..., 1::2]
        out = torch.empty_like(x)
        out[..., 0::2] = even * cos - odd * sin
        out[..., 1::2] = even * sin + odd * cos
        return out

    def forward(self, tokens, first):
        """tokens (T,) at positions first .. first + T - 1; returns the last position's logits (V,)."""
        t = tokens.shape[0]
        end = first + t
        x = self.embedding[tokens]  # (T, D)
        scale = 1.0 / math.sqrt(self.dh)
        for layer, b in enumerate(self.blocks):
            qkv = linear(self.rms_norm(x, b["ln1"]), b["wqkv"])  # (T, 3D)
            q, k, v = qkv.view(t, 3, self.h, self.dh).unbind(1)  # (T, H, Dh) each
            q, k = self.rope(q, first), self.rope(k, first)
            self.k_cache[layer][:, first:end] = k.transpose(0, 1)
            self.v_cache[layer][:, first:end] = v.transpose(0, 1)
            keys, values = self.k_cache[layer][:, :end], self.v_cache[layer][:, :end]  # (H, end, Dh)
            scores = torch.matmul(q.transpose(0, 1), keys.transpose(1, 2)) * scale  # (H, T, end)
            if t > 1:  # causal: query i sees keys up to first + i
                mask = torch.ones(t, end, dtype=torch.bool).triu(first + 1)
                scores = scores.masked_fill(mask, float("-inf"))
            att = torch.matmul(scores.softmax(-1), values)  # (H, T, Dh)
            x = x + linear(att.transpose(0, 1).reshape(t, self.d), b["wo"])
            up = linear(self.rms_norm(x, b["ln2"]), b["w13"])  # (T, 2F)
            x = x + linear(torch.nn.functional.silu(up[:, :self.f]) * up[:, self.f:], b["w2"])
        return torch.mv(self.head, self.rms_norm(x[-1], self.ln_final))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prompt", type=int, default=19)
    parser.add_argument("--new-tokens", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--blas-threads", type=int, default=None,
                        help="OpenBLAS's threads (default: --threads)")
    parser.add_argument("--blas-as-installed", action="store_true",
                        help="let OpenBLAS pick its kernels itself (not from the CPU flags)")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--d-ff", type=int, default=1344)
    parser.add_argument("--vocab", type=int, default=10000)
    parser.add_argument("--context", type=int, default=1024)
    args = parser.parse_args()
    if args.prompt < 1 or args.new_tokens < 1 or args.prompt + args.new_tokens > args.context:
        parser.error("--prompt and --new-tokens must be positive and fit --context together")
    torch.set_num_threads(args.threads)
    twin = Twin(args.layers, args.d_model, args.heads, args.d_ff, args.vocab, args.context)
    prompt = torch.arange(args.prompt) * 7919 % args.vocab  # any ids: the weights are untrained
    with torch.inference_mode():
        twin.forward(prompt, 0)  # warm-up, as bench_decode's generate warms up
        start = time.perf_counter()
        logits = twin.forward(prompt, 0)
        prefill_seconds = time.perf_counter() - start
        token = int(logits.argmax())
        start = time.perf_counter()
        for step in range(args.new_tokens):
            logits = twin.forward(torch.tensor([token]), args.prompt + step)
            token = int(logits.argmax())
        decode_seconds = time.perf_counter() - start
    print(json.dumps({"threads": args.threads, "blas_threads": int(os.environ["OPENBLAS_NUM_THREADS"]), "prompt_tokens": args.prompt, "new_tokens": args.new_tokens,
                      "prefill_seconds": prefill_seconds,
                      "decode_tokens_per_second": args.new_tokens / decode_seconds}))


if __name__ == "__main__":
    main()
