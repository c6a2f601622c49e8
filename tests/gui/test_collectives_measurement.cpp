// SPDX-License-Identifier: GPL-3.0-or-later
// "Measure on this machine" on the Collectives page (issue 19): a saved link profile for the page's
// rank count is shown on opening (with its date) and plotted; with Open MPI a 2-rank tiny sweep
// finishes, the chart gains one measured point per swept size beside the fitted line (β > 0) and
// the profile is saved where `train --dp 2` reads it; Cancel stops a long sweep; a missing or fake
// mpiexec gives a message. The cache is a temporary folder (LSE_CACHE_DIR), never the user's.
#include "background_timeout.h"
#include "charts/chart_view.h"
#include "distributed/link_profile.h"
#include "main_window.h"
#include "pages/parallel/collectives_measurement_section.h"
#include "pages/parallel/collectives_page.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lse;
using namespace lse::gui;

namespace {

// The measured points of the section's chart (its only marker series), or an empty series.
ChartSeries measuredSeries(const CollectivesMeasurementSection &section)
{
    for (const ChartSeries &series : section.chart()->data().series)
        if (series.kind == ChartSeries::Kind::Marker)
            return series;
    return {};
}

bool hasFittedLine(const CollectivesMeasurementSection &section)
{
    for (const ChartSeries &series : section.chart()->data().series)
        if (series.name.startsWith(QLatin1String("fitted to this machine")) && !series.x.isEmpty())
            return true;
    return false;
}

}  // namespace

class TestCollectivesMeasurement : public QObject {
    Q_OBJECT

    QTemporaryDir cache_;

private slots:
    void initTestCase()
    {
        QVERIFY(cache_.isValid());
        qputenv("LSE_CACHE_DIR", cache_.path().toUtf8());
        MainWindow::installLanguage(QStringLiteral("en"));
    }

    void showsTheSavedProfileOnOpening()
    {
        // A profile for 3 ranks, saved as `mpirun -np 3 llm-explorer-cli links` would.
        std::vector<distributed::SweepPoint> sweep;
        for (std::int64_t bytes : {std::int64_t(1024), std::int64_t(65536), std::int64_t(1048576)})
            sweep.push_back({bytes, 2e-5 + double(bytes) * 4.0 / 3.0 / 2e9, 0, 0});
        const Result<distributed::LinkProfile> profile = distributed::makeLinkProfile(3, {}, sweep);
        QVERIFY(profile.ok());
        QVERIFY(distributed::saveLinkProfile(*profile).ok());

        CollectivesPage page;
        page.setRanks(3);
        CollectivesMeasurementSection &section = *page.measurementSection();
        QVERIFY(section.profile().has_value());
        QCOMPARE(section.profile()->measured_at, profile->measured_at);
        QVERIFY2(section.statusText().contains(QString::fromStdString(profile->measured_at)), qPrintable(section.statusText()));
        QCOMPARE(measuredSeries(section).x.size(), 3);
        QVERIFY(hasFittedLine(section));
        QVERIFY(page.charts().contains(section.chart()));
        // The CSV export carries the measured points.
        QVERIFY(section.chart()->toCsv().contains(QLatin1String("measured on this machine")));
        // Look at it: 1024 wide and presentation 1920 wide (the PNGs go to the temp folder; the dark
        // theme needs the main window: llm-explorer --page collectives --theme dark --size 1024x3000).
        page.show();
        for (const bool presentation : {false, true}) {
            page.setPresentation(presentation);
            page.resize(presentation ? 1920 : 1024, presentation ? 1080 : 768);
            section.resize(presentation ? 1900 : 1000, presentation ? 900 : 480);
            const QString name = QStringLiteral("collectives_measurement_%1.png")
                                     .arg(presentation ? QStringLiteral("presentation") : QStringLiteral("1024"));
            QVERIFY(section.grab().save(QDir::temp().filePath(name)));
        }
        page.setPresentation(false);
        // Another rank count without a profile says so and plots only the model.
        page.setRanks(5);
        QVERIFY(!section.profile().has_value());
        QVERIFY(measuredSeries(section).x.isEmpty());
        QVERIFY(section.statusText().contains(QLatin1String("No measurement")));
    }

    void measuresTwoRanks()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        CollectivesPage page;
        page.setRanks(2);
        CollectivesMeasurementSection &section = *page.measurementSection();
        section.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        section.setSweepBytes({4, 1024, 65536, 1048576});
        QSignalSpy finished(&section, &CollectivesMeasurementSection::measurementFinished);
        QSignalSpy progress(&section, &CollectivesMeasurementSection::progress);
        section.start();
        QVERIFY(section.isRunning());
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(section.statusText()));
        QVERIFY(!section.isRunning());
        // 2 ranks: a ping-pong and an all-reduce sweep of 4 sizes each.
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 8);
        QCOMPARE(progress.last().at(1).toInt(), 8);
        QVERIFY(section.profile().has_value());
        QVERIFY(section.profile()->beta_bytes_per_second > 0);
        QCOMPARE(measuredSeries(section).x.size(), 4);
        QVERIFY(hasFittedLine(section));
        QVERIFY(QFile::exists(QString::fromStdString(distributed::linkProfileCachePath(2))));
        QVERIFY2(section.statusText().contains(QString::fromStdString(section.profile()->measured_at)),
                 qPrintable(section.statusText()));
#endif
    }

    void cancelStopsTheSweep()
    {
#ifndef LSE_MPIEXEC
        QSKIP("Open MPI not installed: apt-get install libopenmpi-dev openmpi-bin");
#else
        CollectivesPage page;
        page.setRanks(4);
        CollectivesMeasurementSection &section = *page.measurementSection();
        section.setLaunchers(QStringLiteral(LSE_MPIEXEC), QStringLiteral(LSE_CLI_PATH));
        QList<qint64> sweep{4};
        for (int i = 0; i < 40; ++i)
            sweep << 16ll * 1024 * 1024;  // a good part of a second each here: long enough to cancel
        section.setSweepBytes(sweep);
        QSignalSpy finished(&section, &CollectivesMeasurementSection::measurementFinished);
        QSignalSpy progress(&section, &CollectivesMeasurementSection::progress);
        section.start();
        QVERIFY(progress.wait(kBackgroundWorkTimeoutMs));
        section.cancel();
        QVERIFY(finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QVERIFY(!section.isRunning());
        QVERIFY(progress.last().at(0).toInt() < progress.last().at(1).toInt());
        QVERIFY2(section.statusText().contains(QLatin1String("cancelled")), qPrintable(section.statusText()));
        QVERIFY(!QFile::exists(QString::fromStdString(distributed::linkProfileCachePath(4))));
#endif
    }

    void fakeOrMissingMpiexecSaysSo()
    {
        CollectivesPage page;
        page.setRanks(2);
        CollectivesMeasurementSection &section = *page.measurementSection();
        QSignalSpy finished(&section, &CollectivesMeasurementSection::measurementFinished);
        section.setLaunchers(QStringLiteral("/nonexistent/mpiexec"), QStringLiteral(LSE_CLI_PATH));
        section.start();
        QVERIFY(finished.count() == 1 || finished.wait(kBackgroundWorkTimeoutMs));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QVERIFY2(section.statusText().contains(QLatin1String("failed")) && section.statusText().contains(QLatin1String("mpiexec")),
                 qPrintable(section.statusText()));

        section.setLaunchers(QString(), QStringLiteral(LSE_CLI_PATH));
        section.start();
        QCOMPARE(finished.count(), 2);
        QCOMPARE(finished.last().at(0).toBool(), false);
        QVERIFY2(section.statusText().contains(QLatin1String("mpiexec was not found")), qPrintable(section.statusText()));
    }
};

QTEST_MAIN(TestCollectivesMeasurement)
#include "test_collectives_measurement.moc"
