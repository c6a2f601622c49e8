#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""llm_explorer's Tokenizer.encode_batch (issue 34) against npm tiktoken's encode, in one run, as
ratios. Debian has no Python tiktoken package, so the peer is npm tiktoken (the WASM build of its
Rust core, encoding "gpt2"), driven by compare_tokenizers.mjs as compare_tokenizers.sh drives it.
Rounds alternate (tiktoken, then the module at 1 and 2 threads) so that both sides see the same
machine; each round's ratios are printed, then the medians. Nothing is asserted.

    PYTHONPATH=build/default/python /usr/bin/python3 tests/bench/compare_python_tokenizer.py \\
        [--scratch DIR] [--mb N] [--rounds N]

Needs node and npm (npm tiktoken is installed into the scratch folder on first use, never into the
repository) and the GPT-2 files the application bundles.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import llm_explorer as le

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MJS = os.path.join(HERE, "compare_tokenizers.mjs")
GPT2 = os.path.join(REPO, "resources", "tokenizers", "gpt2")
SPECIAL = "<|endoftext|>"


def node(scratch, *arguments):
    run = subprocess.run(["node", MJS, *arguments], capture_output=True, text=True, check=True,
                         env={**os.environ, "LSE_BENCH_DIR": scratch})
    line = next(l for l in run.stdout.splitlines() if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scratch", default=os.environ.get("LSE_BENCH_DIR", "/tmp/lse-tokenizer-bench"))
    parser.add_argument("--mb", type=float, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    os.makedirs(options.scratch, exist_ok=True)
    if not os.path.isfile(os.path.join(options.scratch, "node_modules", "tiktoken", "package.json")):
        print(f"installing npm tiktoken into {options.scratch} ...", file=sys.stderr)
        subprocess.run(["npm", "install", "--prefix", options.scratch, "--no-audit", "--no-fund", "tiktoken"],
                       check=True, capture_output=True)

    # The input: the repository's own texts (README, user guides: English, code, Chinese labels),
    # repeated by compare_tokenizers.mjs's generator with its mixed-language text.
    sources = [os.path.join(REPO, "README.md")] + [os.path.join(REPO, "docs", "user-guide", f)
                                                   for f in sorted(os.listdir(os.path.join(REPO, "docs", "user-guide")))]
    source = os.path.join(options.scratch, "python-input.txt")
    node(options.scratch, "gen-input", source, str(options.mb), *sources)
    with open(source, encoding="utf-8") as file:
        text = file.read()
    # Documents as a notebook has them: one per line.
    documents = text.splitlines(keepends=True)
    megabytes = len(text.encode("utf-8")) / 1e6
    tokenizer = le.Tokenizer.from_files(GPT2, special=[SPECIAL])

    def ours(threads):
        started = time.perf_counter()
        ids = tokenizer.encode_batch(documents, threads=threads)
        return time.perf_counter() - started, sum(len(i) for i in ids)

    print(f"input {megabytes:.2f} MB in {len(documents)} documents; {options.rounds} alternating rounds")
    print(f"{'round':>5} {'tiktoken MB/s':>14} {'ours 1 thr':>11} {'ours 2 thr':>11} {'1 thr / tiktoken':>17} {'2 thr / 1 thr':>14}")
    rates = {"tiktoken": [], 1: [], 2: []}
    for round_index in range(1, options.rounds + 1):
        peer = node(options.scratch, "tiktoken-bench", source, "1")
        rates["tiktoken"].append(megabytes / (peer["best_encode_ms"] / 1e3))
        for threads in (1, 2):
            seconds, _ = ours(threads)
            rates[threads].append(megabytes / seconds)
        print(f"{round_index:>5} {rates['tiktoken'][-1]:>14.1f} {rates[1][-1]:>11.1f} {rates[2][-1]:>11.1f} "
              f"{rates[1][-1] / rates['tiktoken'][-1]:>16.2f}x {rates[2][-1] / rates[1][-1]:>13.2f}x")
    tiktoken_rate, one, two = (statistics.median(rates[k]) for k in ("tiktoken", 1, 2))
    print(f"median: tiktoken {tiktoken_rate:.1f} MB/s, llm_explorer encode_batch {one:.1f} MB/s on 1 thread "
          f"({one / tiktoken_rate:.2f}x tiktoken), {two:.1f} MB/s on 2 ({two / one:.2f}x 1 thread)")


if __name__ == "__main__":
    main()
