#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One-stop developer entry point: installs missing Debian packages, configures, builds,
# then runs the app or the tests. See ./dev.sh --help.
set -euo pipefail

# A relative PREFIX (./dev.sh install PREFIX) is relative to where dev.sh was started from.
LSE_CALLER_DIR="$PWD"
cd "$(dirname "${BASH_SOURCE[0]}")"

PRESET="${LSE_PRESET:-default}"

# Debian packages the build needs, each with the reason it is needed.
REQUIRED_PACKAGES=(
    "cmake|CMake >= 3.25 build system generator (presets v6)"
    "ninja-build|Ninja build tool used by all CMake presets"
    "g++|C++20 compiler"
    "qt6-base-dev|Qt 6 Core/Widgets/Test headers and CMake packages"
    "qt6-svg-dev|Qt 6 SVG module (icons, SVG export)"
    "qt6-tools-dev|Qt 6 LinguistTools CMake package (translations)"
    "qt6-tools-dev-tools|Qt 6 developer tools (designer, qdbus, etc.)"
    "qt6-l10n-tools|Qt 6 lupdate/lrelease for building translations"
    "libqcustomplot-dev|QCustomPlot charting widget"
    "libeigen3-dev|Eigen 3 linear algebra headers"
    "zlib1g-dev|zlib, the streaming gzip inflate of the trace importer (core/traces reads .json.gz profiler traces)"
    "libgl-dev|OpenGL headers required by Qt 6 Gui's CMake package"
    "fonts-noto-cjk|CJK fonts so translated UI text renders"
    "fonts-noto-color-emoji|colour emoji font so emoji in samples (Tokenization page) render instead of boxes"
    "qt6-translations-l10n|Qt's own translations (qtbase_*.qm) so Qt dialogs and buttons follow the UI language"
    "libopenmpi-dev|MPI headers and libraries for distributed reference runs (lse_mpi; optional in CMake)"
    "openmpi-bin|mpirun, which starts the distributed runs and the tests/mpi CTest tests"
    "desktop-file-utils|desktop-file-validate, which tests/install runs on the installed .desktop entry"
    "appstream|appstreamcli, which tests/install runs to validate the installed AppStream metadata"
    "pybind11-dev|pybind11, which builds the llm_explorer Python module (app/python) over lse_core"
    "python3-dev|the Python headers the llm_explorer module compiles against"
    "jupyter-nbconvert|executes docs/notebooks/course-example.ipynb in the tests (test_course_notebook)"
    "python3-ipykernel|the Python kernel nbconvert runs the course notebook on"
    "python3-pandas|DataFrames of the module's results in the course notebook"
    "python3-matplotlib|the course notebook's memory plot"
)

say() { printf '==> %s\n' "$*"; }
die() { printf 'dev.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
    cat <<EOF
Usage: ./dev.sh <command> [args...]

Commands:
  run [app args...]  check dependencies, configure, build, then start the GUI
                     (build/<preset>/app/gui/llm-explorer) if it exists, otherwise
                     print the default scenario's estimate via
                     'llm-explorer-cli estimate [args...]'
  build              check dependencies, configure and build
  test               check dependencies, configure, build and run ctest
  python [args...]   check dependencies, configure, build, then start python3 with the
                     llm_explorer module importable from the build tree
                     (build/<preset>/python); args go to python3
  screenshots        build, then render every page to docs/images/ with the app's
                     --screenshot option (English, and Chinese in presentation mode)
  install PREFIX     check dependencies, configure, build, then 'cmake --install'
                     into PREFIX (e.g. ~/.local or /usr/local): the programs, the
                     .desktop entry, icons, AppStream metadata and man pages. The
                     list of installed files is kept in
                     PREFIX/share/llm-explorer/install_manifest.txt
  uninstall PREFIX   remove exactly the files that list names, then the folders
                     the install created if they are empty (docs/install.md)
  -h, --help         show this help

Environment:
  LSE_PRESET      CMake preset to use: default (RelWithDebInfo), debug, asan
                  (current: ${PRESET})
  LSE_SHARED_DIR  passed to CMake as -DLSE_SHARED_DIR (course reference data folder)
  LSE_DRY_RUN=1   only report missing packages and print the apt-get commands,
                  without installing, configuring or building
EOF
}

# Prints the names of required packages that are not installed, one per line.
missing_packages() {
    local entry pkg status
    for entry in "${REQUIRED_PACKAGES[@]}"; do
        pkg="${entry%%|*}"
        status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
        if [[ "$status" != "install ok installed" ]]; then
            printf '%s\n' "$pkg"
        fi
    done
}

package_reason() {
    local entry
    for entry in "${REQUIRED_PACKAGES[@]}"; do
        if [[ "${entry%%|*}" == "$1" ]]; then
            printf '%s\n' "${entry#*|}"
            return
        fi
    done
}

ensure_packages() {
    say "checking Debian packages"
    command -v dpkg-query >/dev/null 2>&1 \
        || die "dpkg-query not found: this script expects Debian 12 (or a derivative)"

    local missing=() pkg
    mapfile -t missing < <(missing_packages)
    if ((${#missing[@]} == 0)); then
        say "all ${#REQUIRED_PACKAGES[@]} required packages are installed"
        return 0
    fi

    say "missing packages (${#missing[@]}):"
    for pkg in "${missing[@]}"; do
        printf '    %s: %s\n' "$pkg" "$(package_reason "$pkg")"
    done

    local sudo=()
    if ((EUID != 0)); then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        elif [[ "${LSE_DRY_RUN:-0}" != 1 ]]; then
            die "installing packages needs root, and sudo is not available; run as root:" \
                "apt-get install -y --no-install-recommends ${missing[*]}"
        fi
    fi

    local update=("${sudo[@]}" apt-get update)
    local install=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive
                   apt-get install -y --no-install-recommends "${missing[@]}")
    if [[ "${LSE_DRY_RUN:-0}" == 1 ]]; then
        say "dry run; would run:"
        printf '    %s\n' "${update[*]}" "${install[*]}"
        return 0
    fi
    say "installing: ${missing[*]}"
    "${update[@]}"
    "${install[@]}"
}

configure() {
    local args=(--preset "$PRESET")
    if [[ -n "${LSE_SHARED_DIR:-}" ]]; then
        args+=("-DLSE_SHARED_DIR=${LSE_SHARED_DIR}")
    fi
    say "configuring (cmake ${args[*]})"
    cmake "${args[@]}"
}

build() {
    local jobs
    jobs="$(nproc 2>/dev/null || echo 2)"
    say "building (cmake --build --preset ${PRESET} --parallel ${jobs})"
    cmake --build --preset "$PRESET" --parallel "$jobs"
}

prepare() {
    ensure_packages
    if [[ "${LSE_DRY_RUN:-0}" == 1 ]]; then
        say "dry run; skipping configure and build"
        exit 0
    fi
    configure
    build
}

# PREFIX as an absolute path (the install records absolute paths), without requiring it to exist.
absolute_path() {
    local path="$1"
    [[ "$path" == /* ]] || path="${LSE_CALLER_DIR}/${path}"
    while [[ "$path" == */ && "$path" != / ]]; do
        path="${path%/}"
    done
    printf '%s\n' "$path"
}

# Where an install keeps its records: the files it put in PREFIX (CMake's install_manifest.txt)
# and the folders it created there. They live in PREFIX so uninstall works without the build tree.
install_records_dir() { printf '%s\n' "$1/share/llm-explorer"; }

# cmake --install of BUILD_DIR (default build/<preset>) into PREFIX, recording what it installs.
# The folders the install will create are found first by installing into a staging DESTDIR:
# exactly those, and no folder that existed before, are removed again by uninstall.
install_build_to() {
    local prefix="$1" build_dir="${2:-build/${PRESET}}" stage dir
    [[ -f "${build_dir}/cmake_install.cmake" ]] || die "no configured build in ${build_dir}"
    stage="$(mktemp -d)"
    DESTDIR="$stage" cmake --install "$build_dir" --prefix "$prefix" >/dev/null
    local records created=()
    records="$(install_records_dir "$prefix")"
    mkdir -p "$stage$records"
    while IFS= read -r dir; do
        dir="${dir#"$stage"}"
        [[ -d "$dir" ]] || created+=("$dir")
    done < <(find "$stage$prefix" -type d)
    rm -rf "$stage"
    # The folders above PREFIX too, when PREFIX itself is new.
    dir="$prefix"
    while [[ -n "$dir" && ! -d "$dir" ]]; do
        created+=("$dir")
        dir="${dir%/*}"
    done

    say "installing into ${prefix} (cmake --install ${build_dir} --prefix ${prefix})"
    cmake --install "$build_dir" --prefix "$prefix"
    mkdir -p "$records"
    cp "${build_dir}/install_manifest.txt" "$records/install_manifest.txt"
    printf '%s\n' "${created[@]}" | sort -u > "$records/install_created_dirs.txt"
    say "installed $(wc -l < "$records/install_manifest.txt") files; ./dev.sh uninstall ${prefix} removes them"
}

# Removes the files the install into PREFIX recorded, its records, then the folders it created
# (deepest first, only when empty: files added there since are kept).
uninstall_from() {
    local prefix="$1" records file dir removed=0
    records="$(install_records_dir "$prefix")"
    [[ -f "$records/install_manifest.txt" ]] \
        || die "no ${records}/install_manifest.txt: nothing was installed into ${prefix} by ./dev.sh install"
    # CMake's manifest has no newline after its last line.
    while IFS= read -r file || [[ -n "$file" ]]; do
        if [[ -f "$file" || -L "$file" ]]; then
            rm -f -- "$file"
            removed=$((removed + 1))
        fi
    done < "$records/install_manifest.txt"
    local created=()
    if [[ -f "$records/install_created_dirs.txt" ]]; then
        mapfile -t created < "$records/install_created_dirs.txt"
    fi
    rm -f -- "$records/install_manifest.txt" "$records/install_created_dirs.txt"
    while IFS= read -r dir; do
        if [[ -n "$dir" && -d "$dir" ]]; then
            rmdir --ignore-fail-on-non-empty -- "$dir"
        fi
    done < <(printf '%s\n' "${created[@]}" | sort -r)
    say "removed ${removed} files from ${prefix}"
}

main() {
    local cmd="${1:-}"
    case "$cmd" in
        -h|--help|help)
            usage
            return 0 ;;
        "")
            usage >&2
            return 2 ;;
        run|build|test|screenshots|python)
            shift ;;
        install|uninstall)
            [[ $# -eq 2 && -n "$2" ]] || { printf 'dev.sh: %s needs one PREFIX argument (a folder)\n\n' "$cmd" >&2; usage >&2; return 2; }
            local prefix
            prefix="$(absolute_path "$2")"
            if [[ "$cmd" == uninstall ]]; then
                uninstall_from "$prefix"
                return
            fi ;;
        *)
            printf 'dev.sh: unknown command: %s\n\n' "$cmd" >&2
            usage >&2
            return 2 ;;
    esac

    prepare

    case "$cmd" in
        build)
            say "build finished: build/${PRESET}" ;;
        install)
            install_build_to "$prefix" ;;
        screenshots)
            local gui="build/${PRESET}/app/gui/llm-explorer"
            mkdir -p docs/images
            local page
            for page in $("$gui" --list-pages); do
                say "rendering ${page}"
                # A tab of a page made of tabs is "page/tab": its file is page-tab.png.
                "$gui" --page "$page" --theme light --screenshot "docs/images/${page//\//-}.png" --size 1280x800
                "$gui" --page "$page" --lang zh_CN --presentation --screenshot \
                    "docs/images/${page//\//-}-zh_CN-presentation.png" --size 1280x720
            done ;;
        test)
            # One test per core: most tests are one busy thread; those that start several
            # processes or threads say so (PROCESSORS in tests/CMakeLists.txt) and run alone.
            local test_jobs
            test_jobs="$(nproc 2>/dev/null || echo 2)"
            say "testing (ctest --preset ${PRESET} --parallel ${test_jobs})"
            ctest --preset "$PRESET" --parallel "$test_jobs" ;;
        python)
            local module_dir="build/${PRESET}/python"
            [[ -d "${module_dir}/llm_explorer" ]] \
                || die "the llm_explorer module was not built in ${module_dir} (the ${PRESET} preset builds it when pybind11-dev and python3-dev are installed; the asan preset never does)"
            say "python3 with llm_explorer from ${module_dir} (import llm_explorer)"
            PYTHONPATH="${PWD}/${module_dir}${PYTHONPATH:+:${PYTHONPATH}}" exec /usr/bin/python3 "$@" ;;
        run)
            local gui="build/${PRESET}/app/gui/llm-explorer"
            local cli="build/${PRESET}/app/cli/llm-explorer-cli"
            if [[ -x "$gui" ]]; then
                say "starting ${gui}"
                exec "$gui" "$@"
            elif [[ -x "$cli" ]]; then
                say "no GUI yet; default scenario estimate (${cli} estimate)"
                exec "$cli" estimate "$@"
            else
                die "neither ${gui} nor ${cli} was built"
            fi ;;
    esac
}

# Allow sourcing (e.g. to test missing_packages) without running anything.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
