#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every relative link and image in README.md, CONTRIBUTING.md and docs/**/*.md points at a file that
exists, and every #anchor at a heading of that file (GitHub's heading slugs).

    tests/docs/check_doc_links.py SOURCE_DIR

Exit 0 when all resolve, 1 listing each broken link as `file:line: target: reason`.
Links to documents other branches of the same release add (tests/docs/links_pending_merge.txt)
are reported as notes, not failures, until those files exist.
"""
import pathlib
import re
import sys
import urllib.parse

# [text](target "title") and ![alt](target); the target ends at whitespace or ')'.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_SOURCE = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.IGNORECASE)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with inline code spans blanked."""
    fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if fence is None and marker:
            fence = marker.group(1)[0] * len(marker.group(1))
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def heading_slugs(text):
    """The anchors GitHub gives the file's headings: lower case, punctuation dropped, spaces to '-',
    a repeated slug suffixed -1, -2, ..."""
    slugs, seen = set(), {}
    fence = None
    for line in text.splitlines():
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if fence is None and marker:
            fence = marker.group(1)[0] * len(marker.group(1))
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        title = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))  # links keep their text
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        slugs.add(slug if count == 0 else f"{slug}-{count}")
    for explicit in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", text):
        slugs.add(explicit)
    return slugs


def links_of(text):
    for number, line in prose_lines(text):
        for pattern in (INLINE_LINK, HTML_SOURCE):
            for match in pattern.finditer(line):
                yield number, match.group(1)
        definition = REFERENCE_DEFINITION.match(line)
        if definition:
            yield number, definition.group(1)


def check(source_dir):
    documents = [source_dir / "README.md", source_dir / "CONTRIBUTING.md"]
    documents += sorted((source_dir / "docs").rglob("*.md"))
    pending_file = source_dir / "tests" / "docs" / "links_pending_merge.txt"
    pending = set()
    if pending_file.is_file():
        pending = {line.strip() for line in pending_file.read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.startswith("#")}
    problems, notes, checked = [], [], 0
    slug_cache = {}
    for document in documents:
        if not document.is_file():
            problems.append(f"{document.relative_to(source_dir)}: missing (the checker expects it)")
            continue
        text = document.read_text(encoding="utf-8")
        where = document.relative_to(source_dir)
        for number, target in links_of(text):
            if not target or EXTERNAL.match(target):
                continue
            checked += 1
            path_part, _, anchor = target.partition("#")
            path_part = urllib.parse.unquote(path_part)
            resolved = (document.parent / path_part).resolve() if path_part else document.resolve()
            try:
                relative = resolved.relative_to(source_dir.resolve()).as_posix()
            except ValueError:
                problems.append(f"{where}:{number}: {target}: points outside the project")
                continue
            if not resolved.exists():
                if relative in pending:
                    notes.append(f"{where}:{number}: {target}: {relative} comes with another branch "
                                 f"(tests/docs/links_pending_merge.txt)")
                else:
                    problems.append(f"{where}:{number}: {target}: no file {relative}")
                continue
            if anchor and resolved.suffix == ".md":
                if resolved not in slug_cache:
                    slug_cache[resolved] = heading_slugs(resolved.read_text(encoding="utf-8"))
                if urllib.parse.unquote(anchor).lower() not in slug_cache[resolved]:
                    problems.append(f"{where}:{number}: {target}: {relative} has no heading #{anchor}")
    return problems, notes, checked, len(documents)


def main():
    if len(sys.argv) != 2:
        print("usage: check_doc_links.py SOURCE_DIR", file=sys.stderr)
        return 2
    source_dir = pathlib.Path(sys.argv[1])
    problems, notes, checked, count = check(source_dir)
    for note in notes:
        print("note: " + note)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{checked} relative links in {count} Markdown files, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
