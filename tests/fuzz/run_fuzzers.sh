#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the libFuzzer harnesses of the `fuzz` preset one after another (docs/fuzzing.md), each for
# SECONDS (default 600), then merges the inputs that add coverage into tests/fuzz/corpus/<name>/.
#   tests/fuzz/run_fuzzers.sh [SECONDS] [NAME...]      e.g. tests/fuzz/run_fuzzers.sh 600 scenario npz
# Logs: $LSE_FUZZ_LOGS (default /tmp/fuzz-logs)/<name>.log; the last "DONE" line holds executions,
# cov and ft. One fuzzer at a time, at low priority: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
shift || true
build=build/fuzz/tests/fuzz
logs="${LSE_FUZZ_LOGS:-/tmp/fuzz-logs}"
mkdir -p "$logs"
if [ "$#" -eq 0 ]; then
    set -- $(ls tests/fuzz/corpus)
fi
for name in "$@"; do
    seeds="tests/fuzz/corpus/$name"
    work="build/fuzz/corpus-work/$name"
    mkdir -p "$work"
    echo "== fuzz_$name for ${seconds}s (log $logs/$name.log)"
    # New inputs go to the first folder (work), the seeds are read only. -timeout: an input that
    # takes longer than 10 s is a finding (a hang), as is one that needs more than 2 GB.
    nice -n 10 "$build/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$logs/$name-" "$work" "$seeds" > "$logs/$name.log" 2>&1 || {
        echo "fuzz_$name stopped with a finding: see $logs/$name.log"
        continue
    }
    grep -E "^#[0-9]+[[:space:]]+DONE" "$logs/$name.log" | tail -1 || true
    # Keep only what adds coverage beyond the seeds: the committed corpus stays small.
    nice -n 10 "$build/fuzz_$name" -merge=1 "$seeds" "$work" > "$logs/$name-merge.log" 2>&1
    echo "corpus: $(ls "$seeds" | wc -l) files, $(du -sh "$seeds" | cut -f1)"
done
