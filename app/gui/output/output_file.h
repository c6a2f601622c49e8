// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's outputs (screenshots, page images, chart exports, handouts, slides, saved files) go
// through core's one writer (core/common/file_writer.h): the bytes are made in memory first, then
// written beside the target and renamed over it, so a full disk never leaves a cut PNG, a device
// or FIFO is never replaced, and a file this window reads (the open scenario, the lesson shown) is
// never overwritten by an export.
#pragma once

#include "common/file_writer.h"

#include <QByteArray>
#include <QImage>
#include <QString>

namespace lse::gui {

// Writes `bytes` to `path`; on failure `error` (if given) gets a sentence naming the file and the
// reason ("… is a pipe (FIFO); an output must be a regular file…", "… (No space left on device).").
bool writeOutputFile(const QString &path, const QByteArray &bytes, QString *error,
                     InputReplacement replacement = InputReplacement::Refused);

// The image encoded as `format` ("PNG"), or empty when the encoder fails.
QByteArray encodeImage(const QImage &image, const char *format = "PNG");

// encodeImage + writeOutputFile.
bool writeImageFile(const QString &path, const QImage &image, QString *error, const char *format = "PNG");

// Why `path` cannot be an output (not a regular file, or a file this window reads), before
// anything is rendered; empty when it can.
QString outputPathProblemText(const QString &path);

}  // namespace lse::gui
