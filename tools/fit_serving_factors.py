#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fit the serving efficiency factors and write them into resources/hardware/serving_efficiency.json.

The fit itself is the core's (core/validation/serving_validation.cpp, fitServingFactors: Nelder-Mead
on the mean |relative error| of every published figure of an accelerator and precision in
resources/validation/published_inference.json); this script runs it through the CLI and records the
numbers with the command that produced them. Rebuild afterwards (the file is compiled in) and check
with `llm-explorer-cli validate --serving --leave-one-source-out`.

Usage: python3 tools/fit_serving_factors.py --cli build/default/app/cli/llm-explorer-cli
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOG = ROOT / "resources" / "hardware" / "serving_efficiency.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="path to llm-explorer-cli")
    parser.add_argument("--check", action="store_true",
                        help="only compare the fit with the catalog; exit 1 when they differ")
    args = parser.parse_args()
    command = [args.cli, "validate", "--serving", "--fit", "--json"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return result.returncode
    fit = json.loads(result.stdout)["fit"]
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
    factors = []
    for entry in fit["factors"]:
        factors.append({
            "accelerator": entry["accelerator"],
            "precision": entry["precision"],
            "compute_fraction": round(entry["compute_fraction"], 4),
            "bandwidth_fraction": round(entry["bandwidth_fraction"], 4),
            "kernel_launch_seconds": float(f"{entry['kernel_launch_seconds']:.4g}"),
            "host_step_seconds": float(f"{entry['host_step_seconds']:.4g}"),
            "source": entry["source"],
        })
    if args.check:
        same = catalog.get("factors") == factors
        print("catalog matches the fit" if same else "catalog differs from the fit")
        return 0 if same else 1
    catalog["factors"] = factors
    catalog["fit_command"] = ("python3 tools/fit_serving_factors.py --cli build/default/app/cli/llm-explorer-cli "
                              "(runs: llm-explorer-cli validate --serving --fit --json)")
    catalog["fitted_mean_absolute_error"] = round(fit["mean_absolute_error"], 4)
    catalog["fitted_worst_absolute_error"] = round(fit["worst_absolute_error"], 4)
    CATALOG.write_text(json.dumps(catalog, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for entry in factors:
        print(f"{entry['accelerator']}/{entry['precision']}: compute {entry['compute_fraction']}, "
              f"bandwidth {entry['bandwidth_fraction']}, kernel {entry['kernel_launch_seconds']} s, "
              f"host {entry['host_step_seconds']} s")
    print(f"fitted: mean |error| {100 * fit['mean_absolute_error']:.1f} %, worst {100 * fit['worst_absolute_error']:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
