// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/problem.h"
#include "scenario/scenario.h"
#include "validation/flop_conventions.h"

#include <QByteArray>

#include <optional>
#include <string>
#include <vector>

namespace lse {

// The figures a source printed for one run; unset where it printed none.
struct PublishedFigures {
    std::optional<double> iteration_time_seconds;
    std::optional<double> tflops_per_gpu;
    std::optional<double> percent_of_peak;
    std::optional<double> mfu_percent;
    std::optional<double> hfu_percent;
    std::optional<double> aggregate_pflops;
    std::optional<double> peak_tflops_per_gpu;
    std::optional<double> tokens_per_second;          // all GPUs together
    std::optional<double> tokens_per_second_per_gpu;  // one GPU's share
};

// One published training run (resources/validation/published_runs.json, compiled in as
// ":/validation/published_runs.json"): where it comes from, what was verified, the run as a
// scenario, and what was measured.
struct PublishedRun {
    std::string id;
    std::string name;
    int year = 0;
    std::string source;
    // The paper the run comes from, "Narayanan et al. 2021": the optional "paper" key, else the
    // source's leading "<author> et al. <year>" (paperOfSource). Leave-one-paper-out groups by it.
    std::string paper;
    std::string source_locator;
    std::string verification;  // what was checked against which source, and every correction
    std::string note;          // assumptions made to turn the run into a scenario
    std::string links;         // the cluster's interconnect as the source states it
    // Link bandwidth per GPU, one direction, in Gbit/s, where the source states it (NVLink inside a
    // node, the network across nodes); the prediction model's link fields take these.
    std::optional<double> intra_node_gbps_per_gpu;
    std::optional<double> inter_node_gbps_per_gpu;
    bool distributed_optimizer = false;
    FlopConvention flop_convention = FlopConvention::NarayananEq3;
    std::string flop_convention_definition;
    Scenario scenario;  // passes validate()
    PublishedFigures published;

    // The published iteration time in seconds: the printed one, the printed throughput in tokens
    // per second, or the printed TFLOP/s per GPU converted with the source's own FLOP formula
    // (flop_conventions.h).
    double publishedIterationSeconds() const;
    bool iterationTimePrinted() const { return published.iteration_time_seconds.has_value(); }
    // The closed-form shape of this run (global batch, sequence, layers, width, vocabulary).
    GptFlopShape flopShape() const;
};

// The leading "<author> et al. <year>" of a source ("Korthikanti et al. 2022 'Reducing ...'" →
// "Korthikanti et al. 2022"); the whole source when it does not start that way.
std::string paperOfSource(const std::string &source);

// Every problem names the run's field ("runs[3].training.tp") and the run's id in the message.
// A run must give either a printed iteration time or a TFLOP/s per GPU under a convention that
// converts it (rule "required"), and its scenario must pass validate().
Result<std::vector<PublishedRun>> parsePublishedRuns(const QByteArray &json);
// The compiled-in table, parsed once; a broken built-in file aborts (tests catch it first).
const std::vector<PublishedRun> &builtinPublishedRuns();

}  // namespace lse
