#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Predicted vs measured step time of the CPU reference run (issue 29, section 3).

For each round, preset and thread count: removes the cached kernel factors, so that `train`
measures this CPU's roofline and kernel factors again in the same process right before it trains
(the prediction then rests on a roofline measured in the same run), trains a few steps and reads
`step_time` from `train --json`. Runs alternate between presets and thread counts, so a change of
load on a shared machine touches all of them alike; the table gives the medians over the rounds.

  tools/bench_cpu_step_prediction.py --cli build/default/app/cli/llm-explorer-cli --rounds 3

Prints one line per run and a summary: predicted, measured (median of the steps after the first),
measured / predicted, the predicted part spent while other processes held the cores, and the
measured CPU time per thread (what the step took on the cores this process had).
"""
import argparse
import json
import os
import random
import statistics
import struct
import subprocess
import sys
import tempfile

STEPS = {"tiny": 12, "small": 6, "cs336-tinystories": 3}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/default/app/cli/llm-explorer-cli")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--presets", default="tiny,small,cs336-tinystories")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    presets = args.presets.split(",")
    work = tempfile.mkdtemp(prefix="lse-cpu-bench-")
    tokens = os.path.join(work, "tokens.bin")
    random.seed(1)
    with open(tokens, "wb") as f:  # random ids below every preset's vocabulary
        f.write(struct.pack("<%dH" % 400000, *[random.randrange(2048) for _ in range(400000)]))
    env = dict(os.environ, LSE_CACHE_DIR=os.path.join(work, "cache"))
    subprocess.run([args.cli, "machine", "--remeasure"], env=env, check=True, capture_output=True)
    results = {}
    for round_ in range(args.rounds):
        for preset in presets:
            for t in threads:
                kernels = os.path.join(work, "cache", "machine-kernels.json")
                if os.path.exists(kernels):
                    os.remove(kernels)
                load = os.getloadavg()[0]
                run = subprocess.run([args.cli, "train", "--config", preset, "--data", tokens, "--steps", str(STEPS[preset]),
                                      "--threads", str(t), "--json"], env=env, capture_output=True, text=True)
                if run.returncode != 0:
                    print(run.stderr, file=sys.stderr)
                    sys.exit(1)
                st = json.loads(run.stdout)["step_time"]
                row = (st["predicted_seconds"], st["measured_seconds"], st["predicted_other_processes_seconds"],
                       st["measured_cpu_seconds_per_thread"], st["predicted_idle_seconds"])
                results.setdefault((preset, t), []).append(row)
                print("round %d %-18s %d thread(s) load %.2f: predicted %8.1f ms (idle %8.1f + others %7.1f), measured %8.1f ms "
                      "(CPU %8.1f ms/thread), measured/predicted %.2f" % (round_ + 1, preset, t, load, row[0] * 1e3, row[4] * 1e3,
                                                                       row[2] * 1e3, row[1] * 1e3, row[3] * 1e3, row[1] / row[0]),
                      flush=True)
    print("\nmedians over %d rounds" % args.rounds)
    print("%-18s %7s %12s %12s %8s %14s %12s %9s" % ("preset", "threads", "predicted ms", "measured ms", "ratio",
                                                     "idle pred. ms", "CPU ms/thr", "CPU/idle"))
    for (preset, t), rows in results.items():
        med = lambda i: statistics.median(r[i] for r in rows)
        ratio = statistics.median(r[1] / r[0] for r in rows)
        cpu_ratio = statistics.median(r[3] / r[4] for r in rows)
        print("%-18s %7d %12.1f %12.1f %8.2f %14.1f %12.1f %9.2f" % (preset, t, med(0) * 1e3, med(1) * 1e3, ratio,
                                                                   med(4) * 1e3, med(3) * 1e3, cpu_ratio))


if __name__ == "__main__":
    main()
