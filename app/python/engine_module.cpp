// SPDX-License-Identifier: GPL-3.0-or-later
// llm_explorer._engine: the compiled half of the Python module (issue 34). run_command runs one of
// the CLI's commands in this process with its output captured (app/cli/output_capture.h), so the
// Python functions return exactly what `llm-explorer-cli <command> --json` prints; the tokenizer is
// the project's BPE (core/tokenizer), bound directly so that encoding runs without the GIL.
#include "tokenizer_binding.h"

#include "output_capture.h"

#include <QCoreApplication>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace {

// Some commands ask Qt for the application's paths (caches, the program's own file); a Python
// process has no QCoreApplication of its own.
void ensureApplication()
{
    if (QCoreApplication::instance())
        return;
    static int argc = 1;
    static char name[] = "llm_explorer";
    static char *argv[] = {name, nullptr};
    static QCoreApplication *application = new QCoreApplication(argc, argv);
    (void)application;
}

py::tuple runCommand(const std::string &name, const std::vector<std::string> &arguments)
{
    const auto command = lse::cli::commandNamed(QString::fromStdString(name));
    if (!command)
        throw py::value_error("llm_explorer: no command named '" + name + "'");
    ensureApplication();
    QStringList list;
    for (const std::string &argument : arguments)
        list << QString::fromStdString(argument);
    lse::cli::CapturedRun run;
    {
        // A search or a validation can take seconds: other Python threads run meanwhile.
        py::gil_scoped_release release;
        run = lse::cli::runCaptured(command, list);
    }
    const QByteArray err = run.err.toUtf8();
    return py::make_tuple(run.exit_status, py::bytes(run.out.constData(), std::size_t(run.out.size())),
                          lse::python::utf8Text(std::string_view(err.constData(), std::size_t(err.size()))),
                          lse::python::problemTuples(run.problems));
}

}  // namespace

PYBIND11_MODULE(_engine, module)
{
    module.doc() = "The compiled half of llm_explorer: the CLI's commands in-process and the BPE tokenizer.";
    module.def("run_command", &runCommand, py::arg("name"), py::arg("arguments"),
               "Run `llm-explorer-cli NAME ARGUMENTS...` in this process: (exit status, standard output "
               "bytes, error text, [(field, rule, message), ...]).");
    lse::python::bindTokenizer(module);
}
