#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Predicted vs measured generation of the CPU reference transformer (issue 30, "Measured on this CPU").

For each round: removes the cached kernel factors, so that the round's first `generate` measures
this CPU's kernel factors again right before it runs; then, for each batch, runs
`generate --config PRESET --prompt-tokens P --max-tokens O --batch B --threads T --temperature 0
--json` (an untrained model: the speed does not depend on the weights) and reads the measured and
predicted prefill time (to the first token of every sequence) and decode throughput (tokens of all
sequences per second). The batches alternate within a round and their order turns from round to
round, so a change of load on a shared machine touches all of them alike; the table gives the
medians over the rounds.

  tools/bench_cpu_decode_prediction.py --cli build/default/app/cli/llm-explorer-cli --rounds 3

Prints one line per run and a summary: measured, predicted and measured / predicted for the
prefill (ms) and the decode (tokens/s); and the same ratios from this process's CPU time against
the prediction on idle cores (what the work took while it had its core: on a shared machine the
wall time also holds other processes' time slices).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/default/app/cli/llm-explorer-cli")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--preset", default="cs336-tinystories")
    parser.add_argument("--batches", default="1,8,32,64")
    parser.add_argument("--prompt-tokens", type=int, default=64)
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    work = tempfile.mkdtemp(prefix="lse-cpu-decode-bench-")
    env = dict(os.environ, LSE_CACHE_DIR=os.path.join(work, "cache"))
    kernels = os.path.join(work, "cache", "machine-kernels.json")
    results = {}
    for round_ in range(args.rounds):
        if os.path.exists(kernels):
            os.remove(kernels)
        order = batches if round_ % 2 == 0 else list(reversed(batches))
        for b in order:
            load = os.getloadavg()[0]
            run = subprocess.run([args.cli, "generate", "--config", args.preset, "--prompt-tokens", str(args.prompt_tokens),
                                  "--max-tokens", str(args.max_tokens), "--batch", str(b), "--threads", str(args.threads),
                                  "--temperature", "0", "--seed", "1", "--json"], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                print(run.stderr, file=sys.stderr)
                sys.exit(1)
            out = json.loads(run.stdout)
            prefill, decode = out["prefill"], out["decode"]
            if prefill["predicted_seconds"] is None:
                print("no prediction: %s" % out.get("no_prediction"), file=sys.stderr)
                sys.exit(1)
            row = (prefill["measured_seconds"], prefill["predicted_seconds"], decode["measured_tokens_per_second"],
                   decode["predicted_tokens_per_second"],
                   prefill["measured_cpu_seconds"] / args.threads / prefill["predicted_idle_seconds"],
                   decode["predicted_idle_seconds"] / (decode["measured_cpu_seconds"] / args.threads))
            results.setdefault(b, []).append(row)
            print("round %d batch %2d load %.2f: prefill measured %8.1f ms, predicted %8.1f ms (%.2f, CPU time %.2f); decode "
                  "measured %8.1f tokens/s, predicted %8.1f tokens/s (%.2f, CPU time %.2f)"
                  % (round_ + 1, b, load, row[0] * 1e3, row[1] * 1e3, row[0] / row[1], row[4], row[2], row[3], row[2] / row[3],
                     row[5]), flush=True)
    print("\n%s, prompt %d tokens, %d new tokens per sequence, %d thread(s); medians over %d rounds"
          % (args.preset, args.prompt_tokens, args.max_tokens, args.threads, args.rounds))
    print("%5s %11s %13s %10s %9s %13s %16s %10s %9s" % ("batch", "prefill ms", "predicted ms", "meas/pred", "CPU time",
                                                         "decode tok/s", "predicted tok/s", "meas/pred", "CPU time"))
    for b in batches:
        rows = results[b]
        med = lambda i: statistics.median(r[i] for r in rows)
        prefill_ratio = statistics.median(r[0] / r[1] for r in rows)
        decode_ratio = statistics.median(r[2] / r[3] for r in rows)
        print("%5d %11.1f %13.1f %10.2f %9.2f %13.1f %16.1f %10.2f %9.2f"
              % (b, med(0) * 1e3, med(1) * 1e3, prefill_ratio, med(4), med(2), med(3), decode_ratio, med(5)))


if __name__ == "__main__":
    main()
