// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "validation/published_runs.h"
#include "validation/validation_table.h"

#include <QAbstractTableModel>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lse::gui {

// The validation table (core/validation/validation_table.h) as a table: one row per published run
// with its layout, the published and predicted step time, the error and the predicted MFU/HFU.
// Beside each run's error (catalog factors, fitted on these runs) its held-out error: the run
// predicted with factors fitted without its source (leave-one-source-out, issue 29 §4).
// Qt::DisplayRole is formatted text; kSortRole the raw value (numeric columns sort as numbers); an
// error above kErrorHighlight is tinted; the tooltip gives the run's source and verification.
class ValidationRunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Run,
        Accelerator,
        Gpus,
        Layout,
        Batch,
        Recomputation,
        Published,
        Predicted,
        Error,
        HeldOut,
        Mfu,
        Hfu,
        ColumnCount
    };
    // The held-out column's state: not asked, computing (in the background), or computed.
    enum class HeldOutState { NotComputed, Computing, Computed, Failed };
    static constexpr int kSortRole = Qt::UserRole + 1;
    // |error| above this is marked: the bound for the worst run.
    static constexpr double kErrorHighlight = 0.10;

    explicit ValidationRunsModel(QObject *parent = nullptr);

    // `runs` are the runs the table was computed from (matched by id for the layout columns).
    void setTable(const ValidationTable &table, const std::vector<PublishedRun> &runs);
    // Each run's held-out error by id (runs of an accelerator with one source have none).
    void setHeldOut(HeldOutState state, const std::map<std::string, double> &errors = {});
    HeldOutState heldOutState() const { return held_out_state_; }
    // The run's held-out error, when it has one.
    std::optional<double> heldOutError(int row) const;
    const ValidationTable &table() const { return table_; }
    const ValidationRow &row(int row) const { return table_.rows.at(std::size_t(row)); }
    // The run of a row (the scenario "Load this run" loads); nullptr when the id has no run.
    const PublishedRun *run(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Header and cell texts follow the language.
    void retranslate();

private:
    QVariant display(std::size_t row, int column) const;
    QVariant sortValue(std::size_t row, int column) const;
    QString toolTip(std::size_t row) const;

    ValidationTable table_;
    std::vector<std::optional<PublishedRun>> runs_;  // one per row: the run with the row's id
    HeldOutState held_out_state_ = HeldOutState::NotComputed;
    std::map<std::string, double> held_out_;
};

}  // namespace lse::gui
