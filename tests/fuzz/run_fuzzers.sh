#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the libFuzzer harnesses of the `fuzz` preset one after another (docs/fuzzing.md), each for
# SECONDS (default 600), then merges the inputs that add coverage into tests/fuzz/corpus/<name>/.
#   tests/fuzz/run_fuzzers.sh [SECONDS] [NAME...]      e.g. tests/fuzz/run_fuzzers.sh 600 scenario npz
#   tests/fuzz/run_fuzzers.sh --minimize NAME...       re-minimize committed corpora only
# Logs: $LSE_FUZZ_LOGS (default /tmp/fuzz-logs)/<name>.log; the last "DONE" line holds executions,
# cov and ft. One fuzzer at a time, at low priority: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build/fuzz/tests/fuzz
logs="${LSE_FUZZ_LOGS:-/tmp/fuzz-logs}"
mkdir -p "$logs"
# The committed corpus: the named seeds (hand-made inputs and regression inputs of findings) plus
# the fewest found inputs that reach every coverage edge of seeds and found inputs together.
# -use_counters=0 merges by edges, not by hit counts, which keeps the corpus about half as large.
minimize_corpus() {
    local name="$1" found="$2" seeds="tests/fuzz/corpus/$1" merged
    merged="$(mktemp -d)"
    nice -n 10 "$build/fuzz_$name" -merge=1 -use_counters=0 "$merged" "$seeds" ${found:+"$found"} \
        > "$logs/$name-merge.log" 2>&1
    # libFuzzer names a found input by the SHA-1 of its bytes; a named seed replaces its copy.
    find "$seeds" -maxdepth 1 -type f -regextype egrep -regex '.*/[0-9a-f]{40}' -delete
    for seed in "$seeds"/*; do
        rm -f "$merged/$(sha1sum < "$seed" | cut -d' ' -f1)"
    done
    mv "$merged"/* "$seeds"/ 2>/dev/null || true
    rmdir "$merged" 2>/dev/null || rm -rf "$merged"
    echo "corpus: $(ls "$seeds" | wc -l) files, $(du -sb "$seeds" | cut -f1) bytes"
}

if [ "${1:-}" = "--minimize" ]; then  # only re-minimize the committed corpora of the NAMEs
    shift
    for name in "$@"; do minimize_corpus "$name" ""; done
    exit 0
fi

seconds="${1:-600}"
shift || true
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
    minimize_corpus "$name" "$work"
done
