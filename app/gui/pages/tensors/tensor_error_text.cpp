// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/tensors/tensor_error_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <optional>

namespace lse::gui {

namespace {

constexpr char kContext[] = "lse::gui::TensorErrorText";

// One message form of core/tensors (tensor_op_apply.cpp, view_rule.cpp): the English pattern, with
// its numbers and shapes captured in order, and the template that says the same with %1, %2, ….
struct ErrorForm {
    const char *pattern;
    const char *text;
};

const ErrorForm kForms[] = {
    {R"(view size is not compatible with input tensor's size and stride: dimension (\d+) \(size (\d+), stride (-?\d+)\) cannot be merged with dimensions? ([\d–]+) \((\d+) elements, innermost stride (-?\d+)\): merging needs stride\[\d+\] = (\d+) × (-?\d+)(?: = (-?\d+))? but it is (-?\d+), so no single stride walks new dimension (\d+) \(size (\d+)\) across them\. Use reshape \(which copies\) or contiguous\(\) first)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "the view's sizes and strides do not fit the input: dimension %1 (size %2, stride %3) cannot be merged "
                       "with dimension(s) %4 (%5 elements, innermost stride %6): merging needs stride[%1] = %7 × %8 = %9, "
                       "but it is %10, so no single stride walks the new dimension %11 (size %12) across them. Use "
                       "reshape (which copies) or contiguous() first")},
    {R"(view size is not compatible with input tensor's size and stride: the new shape (\[[^\]]*\]) has dimensions left over)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "the view's sizes and strides do not fit the input: the new shape %1 has dimensions left over")},
    {R"((\w+) = (-?\d+) is out of range for a (\d+)-dimensional tensor \(expected (-?\d+) to (-?\d+)\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "%1 = %2 is out of range for a %3-dimensional tensor (expected %4 to %5)")},
    {R"(permute needs one dim per dimension \((\d+)\), got (\d+))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "permute needs one dim per dimension (%1), got %2")},
    {R"(dimension (\d+) appears twice; permute needs each once)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "dimension %1 appears twice; permute needs each once")},
    {R"(a 0-dimensional tensor cannot be sliced)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "a 0-dimensional tensor cannot be sliced")},
    {R"(step = (-?\d+) must be positive \(PyTorch has no negative strides\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "step = %1 must be positive (PyTorch has no negative strides)")},
    {R"(step = (-?\d+) makes the stride larger than 2\^41)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "step = %1 makes the stride larger than 2^41")},
    {R"(a 0-dimensional tensor cannot be narrowed)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "a 0-dimensional tensor cannot be narrowed")},
    {R"(start = (-?\d+) is out of range for dimension (\d+) of size (\d+))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "start = %1 is out of range for dimension %2 of size %3")},
    {R"(start \((-?\d+)\) \+ length \((-?\d+)\) exceeds dimension (\d+)'s size (\d+) \(or length is negative\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "start (%1) + length (%2) exceeds the size %4 of dimension %3 (or length is negative)")},
    {R"(the number of sizes \((\d+)\) must be at least the tensor's dimensions \((\d+)\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "the number of sizes (%1) must be at least the tensor's dimensions (%2)")},
    {R"(at most (\d+) dimensions)", QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "at most %1 dimensions")},
    {R"(size (-?\d+) at position (\d+) must equal the existing size (\d+) of dimension (\d+) \(only size-1 dimensions can be expanded\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "size %1 at position %2 must equal the existing size %3 of dimension %4 (only size-1 "
                       "dimensions can be expanded)")},
    {R"(-1 is not allowed at position (\d+), a new leading dimension \(there is no size to keep\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "-1 is not allowed at position %1, a new leading dimension (there is no size to keep)")},
    {R"(size (-?\d+) at position (\d+) is negative)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "size %1 at position %2 is negative")},
    {R"(the expanded tensor would have more than 2\^40 elements)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "the expanded tensor would have more than 2^40 elements")},
    {R"(start_dim \((-?\d+)\) must not come after end_dim \((-?\d+)\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "start_dim (%1) must not come after end_dim (%2)")},
    {R"(t\(\) expects a tensor with at most 2 dimensions, but this one has (\d+) \(use transpose or permute\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "t() expects a tensor with at most 2 dimensions, but this one has %1 (use transpose or permute)")},
    {R"(only one dimension can be inferred \(-1\), but shape (\[[^\]]*\]) has two)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "only one dimension can be inferred (-1), but shape %1 has two")},
    {R"(size (-?\d+) of dimension (\d+) is invalid \(sizes are ≥ 0, or -1 to infer\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "size %1 of dimension %2 is invalid (sizes are ≥ 0, or -1 to infer)")},
    {R"(cannot reshape a tensor of (\d+) elements into shape (\[[^\]]*\]) because the -1 could be any value)",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "cannot reshape a tensor of %1 elements into shape %2 because the -1 could be any value")},
    {R"(shape (\[[^\]]*\]) is invalid for input of size (\d+) \((\d+) is not a multiple of (\d+)\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText",
                       "shape %1 is invalid for input of size %2 (%3 is not a multiple of %4)")},
    {R"(shape (\[[^\]]*\]) is invalid for input of size (\d+) \(it has (\d+) elements\))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "shape %1 is invalid for input of size %2 (it has %3 elements)")},
    {R"(shape (\[[^\]]*\]) is invalid for input of size (\d+))",
     QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "shape %1 is invalid for input of size %2")},
    {R"(unknown operation)", QT_TRANSLATE_NOOP("lse::gui::TensorErrorText", "unknown operation")},
};

// The op prefix ("view(6, 4): ") and the translated rest, or nothing for an unknown form.
std::optional<QString> translate(const std::string &error)
{
    const QString text = QString::fromStdString(error);
    // The core writes "<op>: <why>"; the op (its call as typed) stays as it is.
    static const QRegularExpression op_prefix(QStringLiteral(R"(^([^:]*\)|\.T|[a-z_]+): )"));
    const QRegularExpressionMatch prefix = op_prefix.match(text);
    const QString head = prefix.hasMatch() ? prefix.captured(0) : QString();
    const QString why = text.mid(head.size());
    for (const ErrorForm &form : kForms) {
        const QRegularExpression pattern(QLatin1Char('^') + QString::fromUtf8(form.pattern) + QLatin1Char('$'));
        const QRegularExpressionMatch match = pattern.match(why);
        if (!match.hasMatch())
            continue;
        QString out = QCoreApplication::translate(kContext, form.text);
        QStringList values;
        for (int i = 1; i <= match.lastCapturedIndex(); ++i)
            values << match.captured(i);
        // The view rule's product is left out by the core when it would overflow.
        if (values.size() == 12 && values[8].isEmpty())
            values[8] = QStringLiteral("…");
        for (qsizetype i = values.size(); i >= 1; --i)  // %10 before %1
            out.replace(QLatin1Char('%') + QString::number(i), values[i - 1]);
        return head + out;
    }
    return std::nullopt;
}

}  // namespace

QString tensorErrorText(const std::string &error)
{
    return translate(error).value_or(QString::fromStdString(error));
}

bool isKnownTensorError(const std::string &error) { return translate(error).has_value(); }

}  // namespace lse::gui
