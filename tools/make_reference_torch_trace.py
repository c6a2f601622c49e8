#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A PyTorch profiler (Kineto) CPU trace of the reference transformer's architecture, for issue 31.

Builds the reference transformer of core/reference/model.cpp in plain PyTorch with the shapes of a
reference preset (resources/reference/tiny.json by default): token embedding, n_layers pre-norm
blocks of RMSNorm -> fused Q|K|V projection (one (3*H*Dh, D) matrix, as the reference's arena) ->
RoPE on interleaved pairs -> causal attention written as explicit matrix products (Q.K^T, masked
softmax, P.V: torch.matmul on (B, H, T, Dh), which PyTorch 1.13 runs as aten::bmm, so every product
is visible in the trace; no fused SDPA kernel) -> output projection -> residual -> RMSNorm ->
SwiGLU with a fused w1|w3 (one (2F, D) matrix) -> w2 -> residual; final RMSNorm, an untied (or
tied, as the preset says) LM head, cross-entropy. No biases. AdamW with gradient clipping.

It runs warm-up steps and then `--steps` training steps under
torch.profiler.profile(activities=[CPU], record_shapes=True) with a schedule, so each profiled step
is a `ProfilerStep#N` annotation, and writes the Chrome trace (gzipped; see kineto_layout for why
two files) and, beside it, the list of
matrix products the step must contain: every aten::mm / aten::bmm with its input shapes and 2*m*n*k
FLOPs (x batch for bmm), derived here from the model's dimensions and PyTorch's autograd formulas
(derivatives.yaml: mm_mat1_backward / mm_mat2_backward, bmm) -- never read back from the trace. The
script then checks that the trace holds exactly that multiset, so a wrong derivation fails here,
not in the C++ tests.

Run with Debian's python3-torch (the pyenv python3 has no torch):
    /usr/bin/python3 tools/make_reference_torch_trace.py [--preset resources/reference/tiny.json]
        [--steps 2] [--out tests/data/traces/torch-cpu]
"""

import argparse
import collections
import gzip
import json
import math
import os
import shutil
import sys
import tempfile

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class RMSNorm(torch.nn.Module):
    # y = x / sqrt(mean(x^2) + eps) * g (Zhang & Sennrich 2019), the reference's "rmsnorm".
    def __init__(self, d, eps):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope(x, cos, sin):
    # x (B, T, nh, Dh); interleaved pairs (x[2k], x[2k+1]) rotated by pos * theta^(-2k/Dh)
    # (RoFormer Eq. 34; core/reference/ops/rope.h).
    x0, x1 = x[..., 0::2], x[..., 1::2]
    c, s = cos[None, :, None, :], sin[None, :, None, :]
    return torch.stack((x0 * c - x1 * s, x0 * s + x1 * c), dim=-1).flatten(-2)


class Block(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        D, H, G, Dh, Fd = m["d_model"], m["n_heads"], m["n_kv_heads"], m["head_dim"], m["d_ff"]
        self.H, self.G, self.Dh, self.Fd = H, G, Dh, Fd
        self.ln1 = RMSNorm(D, m["norm_eps"])
        self.wqkv = torch.nn.Parameter(torch.randn((H + 2 * G) * Dh, D) * 0.02)  # q_proj|k_proj|v_proj
        self.wo = torch.nn.Parameter(torch.randn(D, H * Dh) * 0.02)
        self.ln2 = RMSNorm(D, m["norm_eps"])
        self.w_up = torch.nn.Parameter(torch.randn(2 * Fd, D) * 0.02)  # w1|w3
        self.w_down = torch.nn.Parameter(torch.randn(D, Fd) * 0.02)

    def forward(self, x, cos, sin, mask):
        B, T, D = x.shape
        H, G, Dh = self.H, self.G, self.Dh
        qkv = F.linear(self.ln1(x), self.wqkv)  # aten::linear -> matmul -> mm on (B*T, D)
        q, k, v = qkv.split([H * Dh, G * Dh, G * Dh], dim=-1)
        q = rope(q.view(B, T, H, Dh), cos, sin).transpose(1, 2)  # (B, H, T, Dh)
        k = rope(k.view(B, T, G, Dh), cos, sin).transpose(1, 2)
        v = v.view(B, T, G, Dh).transpose(1, 2)
        if G != H:
            k = k.repeat_interleave(H // G, dim=1)
            v = v.repeat_interleave(H // G, dim=1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(Dh)  # aten::bmm (B*H, T, T)
        probs = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        att = torch.matmul(probs, v)  # aten::bmm (B*H, T, Dh)
        att = att.transpose(1, 2).reshape(B, T, H * Dh)
        h = x + F.linear(att, self.wo)
        up = F.linear(self.ln2(h), self.w_up)
        a, g = up.split([self.Fd, self.Fd], dim=-1)
        return h + F.linear(F.silu(a) * g, self.w_down)  # SwiGLU: w2(silu(w1 x) * w3 x)


class Model(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        D, V = m["d_model"], m["vocab_size"]
        self.tied = bool(m.get("tied_embeddings", False))
        self.emb = torch.nn.Parameter(torch.randn(V, D))
        self.blocks = torch.nn.ModuleList([Block(m) for _ in range(m["n_layers"])])
        self.lnf = RMSNorm(D, m["norm_eps"])
        if not self.tied:
            self.head = torch.nn.Parameter(torch.randn(V, D) * 0.02)
        Dh, T = m["head_dim"], m["max_seq_len"]
        inv = m["rope_theta"] ** (-torch.arange(0, Dh, 2, dtype=torch.float32) / Dh)
        ang = torch.arange(T, dtype=torch.float32)[:, None] * inv[None, :]
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)
        self.register_buffer("mask", torch.triu(torch.ones(T, T, dtype=torch.bool), 1), persistent=False)

    def forward(self, tokens):
        T = tokens.shape[1]
        x = F.embedding(tokens, self.emb)
        for b in self.blocks:
            x = b(x, self.cos[:T], self.sin[:T], self.mask[:T, :T])
        return F.linear(self.lnf(x), self.emb if self.tied else self.head)


def expected_matmuls(m, B, T):
    """Every matrix product of one training step (forward and backward), from the dimensions.

    Forward F.linear(x (B,T,K), W (N_out,K)) without bias: aten::mm([B*T, K], [K, N_out]).
    Backward of mm(A, Bm) with A row-major and Bm = W^T column-major (derivatives.yaml,
    mm_mat1_backward / mm_mat2_backward): dA = mm([B*T, N_out], [N_out, K]);
    dW^T = (grad^T . A)^T computed as mm([N_out, B*T], [B*T, K]). The first layer's Q|K|V input
    needs a gradient too (it comes from the embedding, a parameter), so every linear has both.
    Attention: bmm([B*H, T, Dh], [B*H, Dh, T]) and bmm([B*H, T, T], [B*H, T, Dh]); the backward of
    bmm(A, Bm) is dA = bmm(grad, Bm^T), dB = bmm(A^T, grad).
    """
    D, H, G, Dh, Fd, V = m["d_model"], m["n_heads"], m["n_kv_heads"], m["head_dim"], m["d_ff"], m["vocab_size"]
    N = B * T
    out = []

    def mm(role, a, b):
        assert a[1] == b[0]
        out.append({"role": role, "op": "aten::mm", "input_dims": [a, b],
                    "flops": 2 * a[0] * a[1] * b[1]})

    def bmm(role, a, b):
        assert a[0] == b[0] and a[2] == b[1]
        out.append({"role": role, "op": "aten::bmm", "input_dims": [a, b],
                    "flops": 2 * a[0] * a[1] * a[2] * b[2]})

    def linear(name, k, n_out):
        mm(name + " forward", [N, k], [k, n_out])
        mm(name + " backward input", [N, n_out], [n_out, k])
        mm(name + " backward weight", [n_out, N], [N, k])

    BH = B * H
    for layer in range(m["n_layers"]):
        p = f"layer {layer} "
        linear(p + "qkv_projection", D, (H + 2 * G) * Dh)
        bmm(p + "attention_scores forward", [BH, T, Dh], [BH, Dh, T])
        bmm(p + "attention_scores backward q", [BH, T, T], [BH, T, Dh])
        bmm(p + "attention_scores backward k", [BH, Dh, T], [BH, T, T])
        bmm(p + "attention_values forward", [BH, T, T], [BH, T, Dh])
        bmm(p + "attention_values backward probs", [BH, T, Dh], [BH, Dh, T])
        bmm(p + "attention_values backward v", [BH, T, T], [BH, T, Dh])
        linear(p + "attention_output", H * Dh, D)
        linear(p + "mlp_up", D, 2 * Fd)
        linear(p + "mlp_down", Fd, D)
    linear("lm_head", D, V)
    return out


def trace_matmuls(trace_path):
    """(op, dims) -> count of the aten::mm/bmm events inside ProfilerStep annotations."""
    with gzip.open(trace_path, "rt") as f:
        events = json.load(f)["traceEvents"]
    steps = [e for e in events if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")]
    per_step = []
    for s in steps:
        lo, hi = s["ts"], s["ts"] + s["dur"]
        c = collections.Counter()
        for e in events:
            if e.get("ph") == "X" and e.get("name") in ("aten::mm", "aten::bmm", "aten::addmm", "aten::baddbmm") \
                    and lo <= e["ts"] <= hi:
                c[(e["name"], json.dumps(e["args"]["Input Dims"][:2]))] += 1
        per_step.append((s["name"], c))
    return per_step


def kineto_layout(events, version):
    """The profiler's events in the Kineto trace layout, with the shapes record_shapes recorded.

    Debian's torch 1.13 is built without Kineto (torch.autograd.kineto_available() is False), so
    torch.profiler falls back to the legacy autograd profiler, whose export_chrome_trace writes a
    bare JSON array with empty args: the input shapes it recorded are only in prof.events(). This
    writes the same events (name, thread, start and duration in us as recorded) as Kineto does:
    {"traceEvents": [...]} with cat "cpu_op" (record_function scopes -- ProfilerStep#N and the
    optimizer's -- as "user_annotation"), args "External id", "Sequence number" and "Input Dims".
    The legacy profiler records no dtypes, so "Input type" is absent (every tensor here but the
    token ids is float32). pid is fixed (1) so the bytes do not depend on the process.
    """
    out = []
    for e in events:
        if e.trace_name is None:
            continue
        annotation = e.trace_name.startswith(("ProfilerStep#", "Optimizer."))
        a = {"External id": e.id}
        if e.sequence_nr >= 0:
            a["Sequence number"] = e.sequence_nr
            a["Fwd thread id"] = e.fwd_thread
        if e.input_shapes:
            a["Input Dims"] = [list(s) for s in e.input_shapes]
        out.append({"ph": "X", "cat": "user_annotation" if annotation else "cpu_op", "name": e.trace_name,
                    "pid": 1, "tid": e.thread, "ts": e.time_range.start, "dur": e.time_range.elapsed_us(),
                    "args": a})
    out.sort(key=lambda x: (x["ts"], -x["dur"]))
    return {"schemaVersion": 1, "deviceProperties": [],
            "traceName": f"reference transformer, torch {version} legacy profiler (no Kineto), CPU",
            "traceEvents": out}


def gzip_write(path, data: bytes):
    # Reproducible bytes: no file name or time stamp in the gzip header.
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as dst:
            dst.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default=os.path.join(ROOT, "resources/reference/tiny.json"))
    ap.add_argument("--steps", type=int, default=2, help="profiled training steps")
    ap.add_argument("--threads", type=int, default=1, help="torch.set_num_threads")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests/data/traces/torch-cpu"))
    args = ap.parse_args()

    with open(args.preset) as f:
        preset = json.load(f)
    m, tr = preset["model"], preset["training"]
    if (m["norm"], m["norm_placement"], m["activation"], m["positional_encoding"]) != ("rmsnorm", "pre", "swiglu", "rope"):
        sys.exit("the preset is not the cs336 shape (pre-norm RMSNorm, SwiGLU, RoPE)")
    B, T = tr["batch_size"], m["max_seq_len"]

    torch.manual_seed(tr.get("seed", 0))
    torch.set_num_threads(args.threads)
    model = Model(m)
    opt = torch.optim.AdamW(model.parameters(), lr=tr["lr_max"], betas=(tr["beta1"], tr["beta2"]),
                            eps=tr["adam_eps"], weight_decay=tr["weight_decay"])
    gen = torch.Generator().manual_seed(1)

    def step():
        data = torch.randint(0, m["vocab_size"], (B, T + 1), generator=gen)
        tokens, targets = data[:, :-1], data[:, 1:]
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, m["vocab_size"]), targets.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), tr["grad_clip"])
        opt.step()
        return float(loss)

    os.makedirs(args.out, exist_ok=True)
    name = f"reference_{m['name'].removeprefix('reference-')}_cpu"
    trace_path = os.path.join(args.out, name + ".json.gz")
    tmp = tempfile.mkdtemp()
    written = []

    def on_ready(prof):
        p = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(p)  # the legacy profiler's own writer: a bare array, args {}
        written.append(p)
        written.append(kineto_layout(prof.events(), torch.__version__))

    sched = torch.profiler.schedule(wait=1, warmup=1, active=args.steps, repeat=1)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=True,
                                schedule=sched, on_trace_ready=on_ready) as prof:
        for _ in range(2 + args.steps):
            loss = step()
            prof.step()
    print(f"last loss {loss:.4f}")
    with open(written[0], "rb") as src:
        gzip_write(os.path.join(args.out, name + ".legacy.json.gz"), src.read())
    gzip_write(trace_path, json.dumps(written[1], separators=(",", ":")).encode() + b"\n")
    shutil.rmtree(tmp)

    expected = expected_matmuls(m, B, T)
    want = collections.Counter((e["op"], json.dumps(e["input_dims"])) for e in expected)
    found = trace_matmuls(trace_path)
    if len(found) != args.steps:
        sys.exit(f"expected {args.steps} ProfilerStep annotations, found {len(found)}")
    for step_name, got in found:
        if got != want:
            sys.exit(f"{step_name}: the trace's matrix products differ from the derivation:\n"
                     f"  missing {dict(want - got)}\n  extra {dict(got - want)}")
    doc = {
        "format": "llm-explorer-expected-matmuls",
        "version": 1,
        "trace": os.path.basename(trace_path),
        "made_by": "tools/make_reference_torch_trace.py",
        "torch_version": torch.__version__,
        "preset": os.path.relpath(args.preset, ROOT),
        "model": {k: m[k] for k in ("n_layers", "d_model", "n_heads", "n_kv_heads", "head_dim", "d_ff",
                                    "vocab_size", "tied_embeddings")},
        "batch_size": B,
        "seq_len": T,
        "profiled_steps": [s for s, _ in found],
        "note": "Per profiled step. Input dims as the profiler records them (aten::mm [m,k],[k,n]; aten::bmm "
                "[b,m,k],[b,k,n]); flops = 2*m*n*k (x b for bmm), from the model's dimensions.",
        "matmuls_per_step": len(expected),
        "matmul_flops_per_step": sum(e["flops"] for e in expected),
        "matmuls": expected,
    }
    with open(os.path.join(args.out, name + ".matmuls.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{trace_path}: {os.path.getsize(trace_path)} bytes, {len(expected)} matmuls and "
          f"{doc['matmul_flops_per_step']:.4g} FLOPs per step, checked against {len(found)} profiled steps")


if __name__ == "__main__":
    main()
