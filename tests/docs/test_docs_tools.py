#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Self-tests of the documentation tools: the link checker reports a broken file link and a broken
anchor, naming the file and line; gen_cli_docs.py --check reports a stale command naming it and the
regenerate command, regenerating keeps the hand-written text, and bad input exits 2.

    tests/docs/test_docs_tools.py --cli build/default/app/cli/llm-explorer-cli --source .
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

failures = []


def expect(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)


def run(*command):
    return subprocess.run([sys.executable, *map(str, command)], capture_output=True, text=True, check=False)


def test_link_checker(source, scratch):
    checker = source / "tests" / "docs" / "check_doc_links.py"
    project = scratch / "links"
    (project / "docs" / "images").mkdir(parents=True)
    (project / "docs" / "images" / "shot.png").write_bytes(b"png")
    (project / "CONTRIBUTING.md").write_text("# Contributing\n\n## Add a page\n", encoding="utf-8")
    good = ("# Front\n\n![shot](docs/images/shot.png) [c](CONTRIBUTING.md#add-a-page) "
            "[web](https://example.org/x) `[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n")
    (project / "README.md").write_text(good, encoding="utf-8")
    (project / "docs" / "README.md").write_text("# Index\n\n![s](images/shot.png) [up](../README.md#front)\n",
                                                encoding="utf-8")
    done = run(checker, project)
    expect(done.returncode == 0, f"link checker: valid links rejected: {done.stderr}")

    (project / "docs" / "guide.md").write_text("# Guide\n\ntext\n![gone](images/missing.png)\n", encoding="utf-8")
    done = run(checker, project)
    expect(done.returncode == 1 and "docs/guide.md:4" in done.stderr and "images/missing.png" in done.stderr,
           f"link checker: a missing image is not reported with file and line: {done.returncode} {done.stderr}")

    (project / "docs" / "guide.md").write_text("# Guide\n\n[x](../CONTRIBUTING.md#add-an-operator)\n",
                                               encoding="utf-8")
    done = run(checker, project)
    expect(done.returncode == 1 and "#add-an-operator" in done.stderr,
           f"link checker: a missing anchor is not reported: {done.returncode} {done.stderr}")


def test_cli_docs(source, cli, scratch):
    generator = source / "tools" / "gen_cli_docs.py"
    doc = scratch / "cli.md"
    shutil.copyfile(source / "docs" / "cli.md", doc)
    done = run(generator, "--cli", cli, "--doc", doc, "--check")
    expect(done.returncode == 0, f"gen_cli_docs: the project's docs/cli.md is stale: {done.stderr}")

    text = doc.read_text(encoding="utf-8")
    marker = "### `estimate`\n\n```text\n"
    expect(marker in text, "gen_cli_docs: docs/cli.md has no generated `estimate` section")
    stale = text.replace(marker, marker + "  --an-option-the-binary-lacks\n", 1)
    stale = stale.replace("## Examples", "## Examples\n\nA hand-written sentence that must survive.", 1)
    doc.write_text(stale, encoding="utf-8")
    done = run(generator, "--cli", cli, "--doc", doc, "--check")
    expect(done.returncode == 1 and "llm-explorer-cli estimate --help" in done.stderr
           and "--target cli_docs" in done.stderr,
           f"gen_cli_docs --check: a stale estimate section is not named with the fix: {done.stderr}")
    expect(doc.read_text(encoding="utf-8") == stale, "gen_cli_docs --check wrote the file")

    done = run(generator, "--cli", cli, "--doc", doc)
    regenerated = doc.read_text(encoding="utf-8")
    expect(done.returncode == 0 and "--an-option-the-binary-lacks" not in regenerated
           and "A hand-written sentence that must survive." in regenerated,
           "gen_cli_docs: regenerating did not replace the stale part or lost hand-written text")
    expect(run(generator, "--cli", cli, "--doc", doc, "--check").returncode == 0,
           "gen_cli_docs: --check fails right after regenerating")

    doc.write_text("# no markers\n", encoding="utf-8")
    done = run(generator, "--cli", cli, "--doc", doc, "--check")
    expect(done.returncode == 2 and "--doc" in done.stderr and "BEGIN GENERATED" in done.stderr,
           f"gen_cli_docs: a file without markers is not exit 2 naming --doc: {done.stderr}")
    done = run(generator, "--cli", scratch / "no-such-cli", "--doc", source / "docs" / "cli.md", "--check")
    expect(done.returncode == 2 and "--cli" in done.stderr,
           f"gen_cli_docs: a missing binary is not exit 2 naming --cli: {done.stderr}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--source", required=True)
    args = parser.parse_args()
    source = pathlib.Path(args.source)
    with tempfile.TemporaryDirectory() as scratch:
        test_link_checker(source, pathlib.Path(scratch))
        test_cli_docs(source, args.cli, pathlib.Path(scratch))
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
