# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install` into a fresh prefix, then what a desktop and a packager check (issue 20):
# the installed CLI runs, appstreamcli and desktop-file-validate accept the metadata, every file the
# .desktop entry and the AppStream metadata name exists, the man pages list every CLI command, and
# the installed GUI renders a page in Chinese.
#   cmake -DBUILD_DIR=<build> -DPREFIX=<empty folder> -DDESKTOP_ID=<id> [-DPYTHON=<python3>]
#         -P test_install.cmake
# With PYTHON (the interpreter the llm_explorer module was built for) also the installed module.
# A missing validator is a failure, not a skip: ./dev.sh installs desktop-file-utils and appstream.

foreach(variable IN ITEMS BUILD_DIR PREFIX DESKTOP_ID)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "test_install.cmake: -D${variable}=... is required")
    endif()
endforeach()

function(check condition_text)
    if(NOT (${ARGN}))
        message(SEND_ERROR "FAIL: ${condition_text}")
        set(LSE_FAILED ON PARENT_SCOPE)
    else()
        message(STATUS "ok: ${condition_text}")
    endif()
endfunction()

# Runs a command; fails the test with its output unless it exits 0. OUTPUT receives stdout.
function(run_ok description output)
    execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "FAIL: ${description} exited with '${status}'\ncommand: ${ARGN}\nstdout:\n${out}\nstderr:\n${err}")
    endif()
    message(STATUS "ok: ${description}")
    set(${output} "${out}" PARENT_SCOPE)
endfunction()

foreach(tool IN ITEMS appstreamcli desktop-file-validate)
    find_program(LSE_${tool}_PATH ${tool})
    if(NOT LSE_${tool}_PATH)
        message(FATAL_ERROR "FAIL: ${tool} is not installed; it validates the installed metadata. "
                            "Install it with ./dev.sh build (REQUIRED_PACKAGES) or "
                            "apt-get install desktop-file-utils appstream")
    endif()
endforeach()

file(REMOVE_RECURSE "${PREFIX}")
run_ok("cmake --install into ${PREFIX}" ignored ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}")

include(GNUInstallDirs)
set(bin "${PREFIX}/${CMAKE_INSTALL_BINDIR}")
set(share "${PREFIX}/${CMAKE_INSTALL_DATADIR}")

# The installed programs load their private libraries from the prefix, not from the build tree.
foreach(program IN ITEMS llm-explorer llm-explorer-cli)
    run_ok("ldd ${program}" libraries ldd "${bin}/${program}")
    foreach(library IN ITEMS lse_core lse_gui)
        if(program STREQUAL "llm-explorer-cli" AND library STREQUAL "lse_gui")
            continue()
        endif()
        # ldd prints the path as the run path $ORIGIN/../<libdir>/llm-explorer made it.
        string(REGEX MATCH "lib${library}\\.so => ([^ \n]+)" ignored "${libraries}")
        file(REAL_PATH "${CMAKE_MATCH_1}" loaded)
        file(REAL_PATH "${PREFIX}/${CMAKE_INSTALL_LIBDIR}/llm-explorer/lib${library}.so" expected)
        check("${program} loads lib${library}.so from the prefix (ldd: '${CMAKE_MATCH_1}')" loaded STREQUAL expected)
    endforeach()
endforeach()

# The installed CLI computes the default scenario: the parameter count as a whole number.
run_ok("installed llm-explorer-cli estimate" estimate "${bin}/llm-explorer-cli" estimate)
check("estimate prints the parameter count" estimate MATCHES "Parameters\n  total: +[0-9.]+ [kMGT]? ?\\([0-9]+\\)")

# The metadata validators.
set(metainfo "${share}/metainfo/${DESKTOP_ID}.metainfo.xml")
set(desktop "${share}/applications/${DESKTOP_ID}.desktop")
check("metainfo installed" EXISTS "${metainfo}")
check(".desktop installed" EXISTS "${desktop}")
run_ok("appstreamcli validate --no-net" ignored "${LSE_appstreamcli_PATH}" validate --no-net "${metainfo}")
run_ok("desktop-file-validate" ignored "${LSE_desktop-file-validate_PATH}" "${desktop}")

# Every file the .desktop entry names.
file(STRINGS "${desktop}" exec_line REGEX "^Exec=")
file(STRINGS "${desktop}" try_exec_line REGEX "^TryExec=")
file(STRINGS "${desktop}" icon_line REGEX "^Icon=")
string(REGEX REPLACE "^Exec=([^ ]+).*" "\\1" exec "${exec_line}")
string(REGEX REPLACE "^TryExec=" "" try_exec "${try_exec_line}")
string(REGEX REPLACE "^Icon=" "" icon "${icon_line}")
check("Exec '${exec}' is installed in bin/" EXISTS "${bin}/${exec}" AND NOT IS_DIRECTORY "${bin}/${exec}")
check("TryExec '${try_exec}' is installed in bin/" EXISTS "${bin}/${try_exec}")
check("Icon is the desktop id" "${icon}" STREQUAL "${DESKTOP_ID}")
# Qt's X11 window class is the application name main.cpp sets, the program's name.
file(STRINGS "${desktop}" wm_class_line REGEX "^StartupWMClass=")
check("StartupWMClass is the program's name" "${wm_class_line}" STREQUAL "StartupWMClass=${exec}")
check("scalable icon ${icon}.svg" EXISTS "${share}/icons/hicolor/scalable/apps/${icon}.svg")
foreach(size_px IN ITEMS 16 22 24 32 48 64 128 256 512)
    set(png "${share}/icons/hicolor/${size_px}x${size_px}/apps/${icon}.png")
    check("${size_px}px icon" EXISTS "${png}")
    # A PNG's IHDR chunk holds width and height as big-endian 32-bit numbers at bytes 16 to 23 (PNG
    # specification, 11.2.2).
    file(READ "${png}" ihdr OFFSET 16 LIMIT 8 HEX)
    math(EXPR size_hex "${size_px}" OUTPUT_FORMAT HEXADECIMAL)
    string(REGEX REPLACE "^0x" "" size_hex "${size_hex}")
    string(TOLOWER "${size_hex}" size_hex)
    string(LENGTH "${size_hex}" digits)
    math(EXPR pad_digits "8 - ${digits}")
    string(REPEAT "0" ${pad_digits} padding)
    check("${size_px}px icon is ${size_px} x ${size_px} pixels (IHDR ${ihdr})" "${ihdr}" STREQUAL "${padding}${size_hex}${padding}${size_hex}")
endforeach()

# Every file the AppStream metadata names: the launchable entry and the provided binaries.
file(READ "${metainfo}" metainfo_text)
string(REGEX MATCH "<launchable type=\"desktop-id\">([^<]+)</launchable>" ignored "${metainfo_text}")
check("launchable '${CMAKE_MATCH_1}' is installed" EXISTS "${share}/applications/${CMAKE_MATCH_1}")
string(REGEX MATCHALL "<binary>[^<]+</binary>" binaries "${metainfo_text}")
check("metainfo provides binaries" binaries)
foreach(binary IN LISTS binaries)
    string(REGEX REPLACE "</?binary>" "" binary "${binary}")
    check("provided binary '${binary}' is installed" EXISTS "${bin}/${binary}")
endforeach()

# The man pages, generated from --help: the CLI's lists every command the installed CLI has.
set(man1 "${PREFIX}/${CMAKE_INSTALL_MANDIR}/man1")
check("llm-explorer.1" EXISTS "${man1}/llm-explorer.1")
check("llm-explorer-cli.1" EXISTS "${man1}/llm-explorer-cli.1")
file(READ "${man1}/llm-explorer-cli.1" cli_page)
run_ok("installed llm-explorer-cli --help" cli_help "${bin}/llm-explorer-cli" --help)
string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*  " command_lines "${cli_help}")
check("the CLI's --help lists commands" command_lines)
foreach(line IN LISTS command_lines)
    string(STRIP "${line}" command)
    string(REPLACE "-" "\\\\-" command_roff "${command}")
    check("llm-explorer-cli.1 describes '${command}'" cli_page MATCHES "\n\\.B ${command_roff}\n")
endforeach()

# The installed GUI starts, loads its Chinese translation (it exits 2 when it cannot) and renders.
set(screenshot "${PREFIX}/screenshot-zh_CN.png")
run_ok("installed llm-explorer renders a page in Chinese" ignored
       ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
       "${bin}/llm-explorer" --lang zh_CN --screenshot "${screenshot}" --size 800x600)
file(SIZE "${screenshot}" screenshot_bytes)
check("the screenshot is a PNG with content (${screenshot_bytes} bytes)" screenshot_bytes GREATER 10000)

# The Python module, when the build made it (issue 34): importable from the prefix's site folder
# alone, with its private library found through the run path, and giving the CLI's figures.
if(DEFINED PYTHON AND NOT PYTHON STREQUAL "")
    set(site "${PREFIX}/lib/python3/dist-packages")
    check("llm_explorer installed in ${site}" EXISTS "${site}/llm_explorer/__init__.py")
    run_ok("installed llm_explorer imports and estimates" module_params
           ${CMAKE_COMMAND} -E env "PYTHONPATH=${site}" "${PYTHON}" -c
           "import llm_explorer, os\nassert os.path.dirname(llm_explorer.__file__).startswith('${site}')\nprint(llm_explorer.estimate()['params']['total'])")
    run_ok("installed llm-explorer-cli estimate --json" cli_json "${bin}/llm-explorer-cli" estimate --json)
    string(JSON cli_params GET "${cli_json}" params total)
    string(STRIP "${module_params}" module_params)
    check("the installed module's parameter count equals the CLI's (${module_params} vs ${cli_params})"
          module_params STREQUAL cli_params)
endif()

if(LSE_FAILED)
    message(FATAL_ERROR "test_install: some checks failed (see FAIL above)")
endif()
# A passing run leaves nothing behind (a failing one keeps the prefix to look at).
file(REMOVE_RECURSE "${PREFIX}")
