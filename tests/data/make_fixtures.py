#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Regenerates the test fixtures in tests/data/cs336/ and the bundled GPT-2 tokenizer in
resources/tokenizers/gpt2/ from the course folder (CS336 assignment 1 reference data).

    python3 tests/data/make_fixtures.py [COURSE_CS336_DIR]      (default: ../shared/cs336)

Standard library only: a course .npz is a plain (stored, uncompressed) zip of .npy 1.0 arrays, so
slicing the leading (batch) axis of a C-order array is taking a prefix of its data bytes.

What is reduced and why the reduction keeps each test's meaning: RMSNorm, the feed-forward layer,
attention, the transformer block and the LM act on each batch item independently, so the first
BATCH_KEPT of the 8 batch items of an input, with the same items of the expected output, are still
an exact reference. Weights cannot be sliced and are copied unchanged, as is every other file.
The list below is the whole fixture set: tests/core/test_fixture_provenance.cpp checks that the
folder holds exactly these files and, when the course folder exists, that each equals (or is the
stated slice of) its course file.
"""

import io
import json
import pathlib
import shutil
import struct
import sys
import zipfile

BATCH_KEPT = 2

# Course-relative path -> how the fixture is made: "copy" or "batch" (first BATCH_KEPT items of
# axis 0 of every array in the .npz).
FIXTURES = {
    "bpe/corpus.en": "copy",
    "bpe/train-bpe-reference-merges.txt": "copy",
    "bpe/train-bpe-reference-vocab.json": "copy",
    "tokenizer/address.txt": "copy",
    "tokenizer/german.txt": "copy",
    "tokenizer/tinystories_sample.txt": "copy",
    "tokenizer/special_token_trailing_newlines.txt": "copy",
    "tokenizer/special_token_double_newlines_non_whitespace.txt": "copy",
    "tokenizer/expected_ids_gpt2.json": "copy",
    "nn-utils/nn_utils_expected.json": "copy",
    "nn-utils/adamw_inputs.npz": "copy",
    "nn-utils/adamw_expected_params.npz": "copy",
    "model-2024/in_features.npz": "batch",
    "model-2024/in_indices.npz": "batch",
    "model-2024/in_indices_truncated.npz": "batch",
    "model-2024/rmsnorm_weights.npz": "copy",
    "model-2024/rmsnorm_expected_output.npz": "batch",
    "model-2024/positionwise_feedforward_weights.npz": "copy",
    "model-2024/positionwise_feedforward_expected_output.npz": "batch",
    "model-2024/scaled_dot_product_attention_Q.npz": "batch",
    "model-2024/scaled_dot_product_attention_K.npz": "batch",
    "model-2024/scaled_dot_product_attention_V.npz": "batch",
    "model-2024/scaled_dot_product_attention_mask.npz": "copy",
    "model-2024/scaled_dot_product_attention_expected_output.npz": "batch",
    "model-2024/unbatched_multihead_self_attention_weights.npz": "copy",
    "model-2024/unbatched_multihead_self_attention_expected_output.npz": "batch",
    "model-2024/transformer_block_weights.npz": "copy",
    "model-2024/transformer_block_expected_output.npz": "batch",
    "model-2024/transformer_lm_weights.npz": "copy",
    "model-2024/transformer_lm_expected_output.npz": "batch",
    "model-2024/transformer_lm_truncated_expected_output.npz": "batch",
}

# The GPT-2 tokenizer the application embeds (and the tokenizer tests load): course file -> name
# in resources/tokenizers/gpt2/ (the names a vocab.json + merges.txt folder uses).
GPT2_FILES = {
    "tokenizer/gpt2_vocab.json": "vocab.json",
    "tokenizer/gpt2_merges.txt": "merges.txt",
}

ITEM_SIZES = {"<f4": 4, "<i8": 8, "|b1": 1}


def parse_npy_header(data):
    """(header dict text, offset of the array data) of a .npy 1.0 image."""
    if data[:8] != b"\x93NUMPY\x01\x00":
        raise ValueError("not a .npy 1.0 array")
    (header_len,) = struct.unpack("<H", data[8:10])
    return data[10:10 + header_len].decode("latin1"), 10 + header_len


def header_fields(header):
    """dtype, fortran order and shape from the header dict (a Python literal of plain values)."""
    descr = header.split("'descr':")[1].split("'")[1]
    fortran = "'fortran_order': True" in header
    shape_text = header.split("'shape':")[1].split("(")[1].split(")")[0]
    shape = tuple(int(s) for s in shape_text.split(",") if s.strip())
    return descr, fortran, shape


def npy_image(descr, shape, payload):
    """A .npy 1.0 image as numpy writes it: header padded with spaces to a multiple of 64 bytes."""
    shape_text = "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + payload


def slice_batch(npy, kept):
    """The first `kept` entries of axis 0 of a C-order .npy image."""
    header, offset = parse_npy_header(npy)
    descr, fortran, shape = header_fields(header)
    if fortran or descr not in ITEM_SIZES or not shape or shape[0] < kept:
        raise ValueError("cannot slice %s %s (fortran %s)" % (descr, shape, fortran))
    row_bytes = ITEM_SIZES[descr]
    for n in shape[1:]:
        row_bytes *= n
    return npy_image(descr, (kept,) + shape[1:], npy[offset:offset + kept * row_bytes])


def write_npz(path, members):
    """A stored zip with a fixed timestamp, so the same input gives the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            archive.writestr(info, data)
    path.write_bytes(buffer.getvalue())


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    course = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared" / "cs336"
    if not (course / "model-2024").is_dir():
        sys.exit("course folder not found: %s (give the path of shared/cs336)" % course)
    out = root / "tests" / "data" / "cs336"
    if out.exists():
        shutil.rmtree(out)
    for relative, how in FIXTURES.items():
        source, target = course / relative, out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if how == "copy":
            shutil.copyfile(source, target)
        else:
            with zipfile.ZipFile(source) as archive:
                members = [(i.filename, slice_batch(archive.read(i.filename), BATCH_KEPT))
                           for i in archive.infolist()]
            write_npz(target, members)
    gpt2 = root / "resources" / "tokenizers" / "gpt2"
    gpt2.mkdir(parents=True, exist_ok=True)
    for relative, name in GPT2_FILES.items():
        shutil.copyfile(course / relative, gpt2 / name)
    # The manifest the provenance test reads: what each fixture is made from.
    manifest = {
        "batch_kept": BATCH_KEPT,
        "fixtures": [{"file": f, "made_by": h} for f, h in FIXTURES.items()],
        "gpt2": [{"course_file": c, "resource": "resources/tokenizers/gpt2/" + n} for c, n in GPT2_FILES.items()],
    }
    (root / "tests" / "data" / "fixtures.json").write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print("wrote %d fixtures (%.2f MB) to %s and the GPT-2 files to %s" % (len(FIXTURES), size / 1e6, out, gpt2))


if __name__ == "__main__":
    main()
