// SPDX-License-Identifier: GPL-3.0-or-later
#include "pages/table_fill_batch.h"
#include "pages/tensors/tensor_views_section.h"

#include "charts/chart_view.h"
#include "common/file_writer.h"
#include "pages/tensors/tensor_layout_chart.h"
#include "pages/page_format.h"
#include "pages/table_key_columns.h"
#include "pages/tensors/tensor_error_text.h"

#include <QCompleter>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lse::gui {

namespace {

constexpr int kTableMinimumHeight = 170;
constexpr int kLayoutChartMinimumHeight = 420;

QString sizesString(const tensors::Sizes &sizes) { return QString::fromStdString(tensors::sizesText(sizes)); }

// "2,3,4" (spaces, brackets and parentheses tolerated) → sizes; nothing if an entry is not an integer.
std::optional<tensors::Sizes> parseSizes(QString text)
{
    text.remove(QLatin1Char('[')).remove(QLatin1Char(']')).remove(QLatin1Char('(')).remove(QLatin1Char(')'));
    tensors::Sizes sizes;
    if (text.trimmed().isEmpty())
        return sizes;
    for (const QString &part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const qlonglong value = part.trimmed().toLongLong(&ok);
        if (!ok)
            return std::nullopt;
        sizes.push_back(value);
    }
    return sizes;
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    return QLatin1Char('"') + QString(text).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

// Completions for the op field: each op with its parentheses, so that typing "tr" offers "transpose(".
QStringList opCompletions()
{
    QStringList completions;
    for (const std::string &name : tensors::tensorOpNames()) {
        const QString text = QString::fromStdString(name);
        if (text == QLatin1String(".T"))
            completions << text;
        else if (text == QLatin1String("contiguous") || text == QLatin1String("t"))
            completions << text + QStringLiteral("()");
        else
            completions << text + QStringLiteral("(");
    }
    return completions;
}

}  // namespace

TensorViewsSection::TensorViewsSection(QWidget *parent) : PageSection(parent)
{
    QWidget *content = addScrollingContent(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(6);
    intro_ = new QLabel(content);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *start_row = new QHBoxLayout;
    shape_label_ = new QLabel(content);
    shape_edit_ = new QLineEdit(QStringLiteral("2,3,4"), content);
    shape_edit_->setObjectName(QStringLiteral("shapeEdit"));
    strides_label_ = new QLabel(content);
    strides_edit_ = new QLineEdit(content);
    strides_edit_->setObjectName(QStringLiteral("stridesEdit"));
    offset_label_ = new QLabel(content);
    offset_spin_ = new QSpinBox(content);
    offset_spin_->setRange(0, int(kMaxStartElements));
    dtype_label_ = new QLabel(content);
    dtype_spin_ = new QSpinBox(content);
    dtype_spin_->setRange(1, 16);
    dtype_spin_->setValue(4);
    for (QWidget *widget : {static_cast<QWidget *>(shape_label_), static_cast<QWidget *>(shape_edit_),
                            static_cast<QWidget *>(strides_label_), static_cast<QWidget *>(strides_edit_),
                            static_cast<QWidget *>(offset_label_), static_cast<QWidget *>(offset_spin_),
                            static_cast<QWidget *>(dtype_label_), static_cast<QWidget *>(dtype_spin_)})
        start_row->addWidget(widget);
    start_row->addStretch(1);
    layout->addLayout(start_row);

    auto *op_row = new QHBoxLayout;
    op_label_ = new QLabel(content);
    op_edit_ = new QLineEdit(content);
    op_edit_->setObjectName(QStringLiteral("opEdit"));
    auto *completer = new QCompleter(opCompletions(), op_edit_);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    op_edit_->setCompleter(completer);
    add_button_ = new QPushButton(content);
    remove_button_ = new QPushButton(content);
    clear_button_ = new QPushButton(content);
    op_row->addWidget(op_label_);
    op_row->addWidget(op_edit_, 1);
    op_row->addWidget(add_button_);
    op_row->addWidget(remove_button_);
    op_row->addWidget(clear_button_);
    layout->addLayout(op_row);

    input_message_ = new QLabel(content);
    input_message_->setObjectName(QStringLiteral("inputMessage"));
    input_message_->setWordWrap(true);
    input_message_->setVisible(false);
    layout->addWidget(input_message_);

    table_ = new QTableWidget(content);
    table_->setObjectName(QStringLiteral("stepTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->setMinimumHeight(kTableMinimumHeight);
    setKeyColumns(table_, {0, 1, 2, 3});  // step, op, shape, strides: what each view step does
    layout->addWidget(table_);

    auto *reason_row = new QHBoxLayout;
    reason_ = new QLabel(content);
    reason_->setObjectName(QStringLiteral("reason"));
    reason_->setWordWrap(true);
    reason_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    csv_button_ = new QPushButton(content);
    reason_row->addWidget(reason_, 1);
    reason_row->addWidget(csv_button_, 0, Qt::AlignTop);
    layout->addLayout(reason_row);

    layout_chart_ = new ChartView(QStringLiteral("tensor-view-layout"), content);
    layout->addWidget(layout_chart_, 1);

    auto restart = [this] {
        if (!updating_)
            setStart(shape_edit_->text(), strides_edit_->text(), offset_spin_->value());
    };
    connect(shape_edit_, &QLineEdit::editingFinished, this, restart);
    connect(strides_edit_, &QLineEdit::editingFinished, this, restart);
    connect(offset_spin_, &QSpinBox::valueChanged, this, restart);
    connect(dtype_spin_, &QSpinBox::valueChanged, this, [this] { recompute(); });
    auto add = [this] {
        if (addOp(op_edit_->text()))
            op_edit_->clear();
    };
    connect(op_edit_, &QLineEdit::returnPressed, this, add);
    connect(add_button_, &QPushButton::clicked, this, add);
    connect(remove_button_, &QPushButton::clicked, this, &TensorViewsSection::removeLastOp);
    connect(clear_button_, &QPushButton::clicked, this, &TensorViewsSection::clearOps);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (!updating_ && row >= 0 && row != selected_step_) {
            selected_step_ = row;
            refreshDrawing();
        }
    });
    connect(csv_button_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the steps as CSV"),
                                                          QStringLiteral("tensor-view-steps.csv"), tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!saveStepsCsv(path, &error))
            showInputMessage(tr("Could not write %1: %2").arg(path, error));
    });

    retranslateControls();
    setPresentation(false);
    setStart(shape_edit_->text());
    // A first chain that shows the point of the tab: a transpose cannot be viewed flat, reshape copies.
    for (const char *op : {"transpose(0,1)", "view(6,4)"})
        addOp(QString::fromLatin1(op));
    nameLessonRegions();
}

QString TensorViewsSection::title() const { return tr("Views and copies"); }

void TensorViewsSection::showEstimate(const Scenario &, const Estimate &)
{
    // The tensor is the user's; the scenario does not change it.
}

QList<ChartView *> TensorViewsSection::charts() const { return {layout_chart_}; }

void TensorViewsSection::setPresentation(bool presentation)
{
    PageSection::setPresentation(presentation);
    layout_chart_->setPresentation(presentation);
    layout_chart_->setMinimumHeight(presentation ? kPresentationChartMinimumHeight : kLayoutChartMinimumHeight);
}

void TensorViewsSection::retranslate()
{
    retranslateControls();
    recompute();
}

void TensorViewsSection::changeEvent(QEvent *event)
{
    PageSection::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refreshDrawing();
}

void TensorViewsSection::retranslateControls()
{
    intro_->setText(tr("A tensor is a strided view of a 1-D storage: element (i, j, …) lives at offset + i·stride₀ + "
                       "j·stride₁ + …. transpose, permute, slice, expand and friends only change shape, strides and offset. "
                       "view must express the new shape with strides over the same elements, so it can only merge "
                       "dimensions that are contiguous with each other; reshape copies where view cannot, and "
                       "contiguous() copies only when the layout is not already row-major. Type an op and press Enter."));
    shape_label_->setText(tr("Shape:"));
    shape_edit_->setToolTip(tr("Up to %1 dimensions and %2 elements, e.g. 2,3,4").arg(kMaxStartDims).arg(kMaxStartElements));
    strides_label_->setText(tr("Strides:"));
    strides_edit_->setPlaceholderText(tr("contiguous"));
    strides_edit_->setToolTip(tr("Strides in elements, one per dimension; empty for row-major (contiguous)"));
    offset_label_->setText(tr("Offset:"));
    dtype_label_->setText(tr("Bytes per element:"));
    op_label_->setText(tr("Op:"));
    op_edit_->setPlaceholderText(tr("e.g. transpose(0,1), view(6,4), slice(1,0,3,2), expand(2,-1,-1), .T"));
    add_button_->setText(tr("Add"));
    remove_button_->setText(tr("Remove last"));
    clear_button_->setText(tr("Clear"));
    csv_button_->setText(tr("Export table (CSV)…"));
}

QString TensorViewsSection::startProblem(const QString &shape_text, const QString &strides_text, int offset,
                                         tensors::TensorView *view_out) const
{
    const std::optional<tensors::Sizes> shape = parseSizes(shape_text);
    const std::optional<tensors::Sizes> strides = parseSizes(strides_text);
    if (!shape || shape->empty())
        return tr("Shape '%1' must be sizes separated by commas, e.g. 2,3,4").arg(shape_text);
    if (!strides)
        return tr("Strides '%1' must be integers separated by commas, or empty for contiguous").arg(strides_text);
    if (int(shape->size()) > kMaxStartDims)
        return tr("Shape %1 has %2 dimensions; this tab draws up to %3").arg(sizesString(*shape)).arg(shape->size()).arg(kMaxStartDims);
    const Result<tensors::TensorView> view = tensors::makeView(*shape, *strides, offset);
    if (!view)
        return QString::fromStdString(view.problems().front().message);
    if (view->numel() > kMaxStartElements || view->storage_size > kMaxStartStorage)
        return tr("Shape %1 has %2 elements over a storage of %3; this tab draws up to %4 elements and a "
                  "storage of %5 (the CLI's tensor command takes any size)")
            .arg(sizesString(*shape))
            .arg(view->numel())
            .arg(view->storage_size)
            .arg(kMaxStartElements)
            .arg(kMaxStartStorage);
    if (view_out)
        *view_out = *view;
    return {};
}

bool TensorViewsSection::setStart(const QString &shape_text, const QString &strides_text, int offset)
{
    tensors::TensorView view;
    if (const QString problem = startProblem(shape_text, strides_text, offset, &view); !problem.isEmpty()) {
        showInputMessage(problem);
        return false;
    }
    updating_ = true;
    shape_edit_->setText(shape_text);
    strides_edit_->setText(strides_text);
    offset_spin_->setValue(offset);
    updating_ = false;
    start_ = view;
    showInputMessage(QString());
    selected_step_ = int(ops_.size());
    recompute();
    return true;
}

bool TensorViewsSection::addOp(const QString &text)
{
    const Result<tensors::TensorOp> op = tensors::parseTensorOp(text.toStdString());
    if (!op) {
        showInputMessage(QString::fromStdString(op.problems().front().message));
        return false;
    }
    showInputMessage(QString());
    ops_.push_back(*op);
    selected_step_ = int(ops_.size());
    recompute();
    return true;
}

void TensorViewsSection::removeLastOp()
{
    if (ops_.empty())
        return;
    ops_.pop_back();
    selected_step_ = int(ops_.size());
    recompute();
}

void TensorViewsSection::clearOps()
{
    ops_.clear();
    selected_step_ = 0;
    recompute();
}

void TensorViewsSection::selectStep(int step)
{
    selected_step_ = std::clamp(step, 0, int(chain_.steps.size()));
    refreshTable();
    refreshDrawing();
}

void TensorViewsSection::showInputMessage(const QString &message)
{
    input_message_->setText(message);
    input_message_->setVisible(!message.isEmpty());
    QPalette palette = input_message_->palette();
    palette.setColor(QPalette::WindowText, QColor(0xd5, 0x5e, 0x00));  // Okabe–Ito vermillion: readable on light and dark
    input_message_->setPalette(palette);
}

QString TensorViewsSection::inputMessage() const { return input_message_->text(); }

QString TensorViewsSection::reasonText() const { return reason_->text(); }

void TensorViewsSection::recompute()
{
    chain_ = tensors::runTensorChain(start_, ops_, dtype_spin_->value());
    // The chain stops at an error, so fewer steps than ops may exist.
    selected_step_ = std::clamp(selected_step_, 0, int(chain_.steps.size()));
    remove_button_->setEnabled(!ops_.empty());
    clear_button_->setEnabled(!ops_.empty());
    refreshTable();
    refreshDrawing();
}

QStringList TensorViewsSection::headerLabels() const
{
    return {tr("Step"), tr("Op"), tr("Shape"), tr("Strides"), tr("Offset"), tr("Contiguous"), tr("Shares storage"),
            tr("Copied"), tr("Copy traffic"), tr("Error")};
}

QStringList TensorViewsSection::rowCells(int row) const
{
    const QString yes = tr("yes");
    const QString no = tr("no");
    if (row == 0)
        return {QStringLiteral("0"), tr("start"), sizesString(start_.shape), sizesString(start_.strides),
                QString::number(start_.offset), start_.isContiguous() ? yes : no, yes, no, QString(), QString()};
    const tensors::ChainStep &step = chain_.steps[std::size_t(row - 1)];
    if (!step.ok())
        return {QString::number(row), QString::fromStdString(step.op), QString(), QString(), QString(), QString(),
                QString(), QString(), QString(), tensorErrorText(step.error)};
    return {QString::number(row),
            QString::fromStdString(step.op),
            sizesString(step.view->shape),
            sizesString(step.view->strides),
            QString::number(step.view->offset),
            step.contiguous ? yes : no,
            step.shares_storage ? yes : no,
            step.copied ? yes : no,
            step.copied ? tr("%1 read + %2 written")
                              .arg(format::bytes(double(step.copy_bytes_read)), format::bytes(double(step.copy_bytes_written)))
                        : QString(),
            QString()};
}

void TensorViewsSection::refreshTable()
{
    updating_ = true;
    const int rows = int(chain_.steps.size()) + 1;
    const QStringList headers = headerLabels();
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(rows);
    TableFillBatch batch(table_);
    for (int row = 0; row < rows; ++row) {
        const QStringList cells = rowCells(row);
        for (int column = 0; column < int(cells.size()); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            item->setToolTip(cells[column]);
            table_->setItem(row, column, item);
        }
    }
    batch.finish();
    // Columns follow their contents (and presentation fonts); the error, the last, takes the rest.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(int(headers.size()) - 1, QHeaderView::Stretch);
    table_->selectRow(selected_step_);
    updating_ = false;

    QStringList notes;
    if (!chain_.steps.empty() && !chain_.steps.back().ok()) {
        const tensors::ChainStep &failed = chain_.steps.back();
        // core's error starts with the op ("view(6, 4): …"); the heading already names it.
        QString why = tensorErrorText(failed.error);
        const QString prefix = QString::fromStdString(failed.op) + QStringLiteral(": ");
        if (why.startsWith(prefix))
            why = why.mid(prefix.size());
        notes << tr("<b>Why %1 is impossible:</b> %2").arg(QString::fromStdString(failed.op).toHtmlEscaped(),
                                                             why.toHtmlEscaped());
        // Where view fails, reshape with the same sizes copies: say what that copy costs.
        const tensors::TensorOp &failed_op = ops_[chain_.steps.size() - 1];
        if (failed_op.kind == tensors::OpKind::View) {
            const tensors::TensorOp reshape{tensors::OpKind::Reshape, failed_op.args};
            const tensors::TensorChain instead = tensors::runTensorChain(
                TensorLayoutChart::viewAt(chain_, int(chain_.steps.size()) - 1), {reshape}, dtype_spin_->value());
            if (!instead.steps.empty() && instead.steps.front().copied)
                notes << tr("%1 would copy here instead: %2 read and %3 written.")
                             .arg(QString::fromStdString(reshape.text()).toHtmlEscaped(),
                                  format::bytes(double(instead.steps.front().copy_bytes_read)),
                                  format::bytes(double(instead.steps.front().copy_bytes_written)));
        }
        if (ops_.size() > chain_.steps.size())
            notes << tr("%n later op(s) not applied: the chain stops at the error.", nullptr,
                        int(ops_.size() - chain_.steps.size()));
    }
    for (const tensors::ChainStep &step : chain_.steps)
        if (step.copied)
            notes << tr("%1 copied into a new storage: %2 read and %3 written (%4 bytes per element).")
                         .arg(QString::fromStdString(step.op).toHtmlEscaped(), format::bytes(double(step.copy_bytes_read)),
                              format::bytes(double(step.copy_bytes_written)))
                         .arg(dtype_spin_->value());
    reason_->setText(notes.join(QStringLiteral("<br>")));
}

void TensorViewsSection::refreshDrawing()
{
    ChartData drawing = TensorLayoutChart::build(chain_, selected_step_, palette());
    const bool failed = selected_step_ > 0 && !chain_.steps[std::size_t(selected_step_ - 1)].ok();
    if (selected_step_ == 0)
        drawing.title = tr("The starting tensor and its storage");
    else if (failed)
        drawing.title = tr("Step %1, %2, is impossible: the input it was applied to")
                         .arg(selected_step_)
                         .arg(QString::fromStdString(chain_.steps[std::size_t(selected_step_ - 1)].op));
    else
        drawing.title = tr("After step %1, %2").arg(selected_step_).arg(QString::fromStdString(chain_.steps[std::size_t(selected_step_ - 1)].op));
    const tensors::TensorView &view = TensorLayoutChart::viewAt(chain_, selected_step_);
    drawing.formula.inputs = tr("shape %1, strides %2 (elements), offset %3")
                              .arg(sizesString(view.shape), sizesString(view.strides))
                              .arg(view.offset);
    drawing.formula.formula = tr("address(i₀, …, iₙ₋₁) = offset + Σₖ iₖ·strideₖ; view needs strideₖ = sizeₖ₊₁·strideₖ₊₁ "
                              "between every pair of dimensions it merges");
    drawing.formula.source = tr("PyTorch ATen: computeStride (TensorUtils.cpp), is_contiguous");
    layout_chart_->setData(drawing);
}

QString TensorViewsSection::stepsCsv() const
{
    // Machine-readable: fixed English column names and plain numbers, like the CLI's JSON.
    QString csv = QStringLiteral("step,op,shape,strides,offset,contiguous,shares_storage,copied,bytes_read,bytes_written,error\n");
    auto bool_text = [](bool value) { return value ? QStringLiteral("true") : QStringLiteral("false"); };
    csv += QStringLiteral("0,start,%1,%2,%3,%4,true,false,0,0,\n")
               .arg(csvField(sizesString(start_.shape)), csvField(sizesString(start_.strides)))
               .arg(start_.offset)
               .arg(bool_text(start_.isContiguous()));
    for (std::size_t i = 0; i < chain_.steps.size(); ++i) {
        const tensors::ChainStep &step = chain_.steps[i];
        QStringList fields{QString::number(i + 1), csvField(QString::fromStdString(step.op))};
        if (step.ok())
            fields << csvField(sizesString(step.view->shape)) << csvField(sizesString(step.view->strides))
                   << QString::number(step.view->offset) << bool_text(step.contiguous) << bool_text(step.shares_storage);
        else
            fields << QString() << QString() << QString() << QString() << QString();
        fields << bool_text(step.copied) << QString::number(step.copy_bytes_read) << QString::number(step.copy_bytes_written)
               << csvField(QString::fromStdString(step.error));
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

bool TensorViewsSection::saveStepsCsv(const QString &path, QString *error) const
{
    const QByteArray bytes = stepsCsv().toUtf8();
    const Result<bool> written =
        writeFileReplacing(QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!written) {
        if (error)
            *error = QString::fromStdString(written.problems().front().message);
        return false;
    }
    return true;
}

}  // namespace lse::gui
