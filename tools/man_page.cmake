# SPDX-License-Identifier: GPL-3.0-or-later
# Writes a man page (section 1) from a program's own --help, so the page cannot drift from the
# program. Run at build time by resources/desktop/CMakeLists.txt:
#   cmake -DPROGRAM=<exe> -DNAME=<name> -DSUMMARY=<one line> -DDESCRIPTION=<sentence>
#         -DVERSION=<x.y.z> -DKIND=gui|cli
#         -DSEE_ALSO=<other page> -DOUTPUT=<file.1> -P man_page.cmake
# KIND cli: the program has subcommands; `PROGRAM --help` lists them under "Commands:" (two spaces,
# name, description) and `PROGRAM <command> --help` prints each one's options.
# Roff rules followed: groff_man(7) (\- for a minus, \e for a backslash, \& before a leading dot).

foreach(variable IN ITEMS PROGRAM NAME SUMMARY DESCRIPTION VERSION KIND OUTPUT)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "man_page.cmake: -D${variable}=... is required")
    endif()
endforeach()

# CMake lists split at ';' and treat '[' ']' specially: help text is carried with those replaced by
# placeholders and restored by roff_escape.
function(help_text_of out)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ASAN_OPTIONS=detect_leaks=0
                            "${PROGRAM}" ${ARGN} --help
                    OUTPUT_VARIABLE text ERROR_VARIABLE error RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "man_page.cmake: '${PROGRAM} ${ARGN} --help' exited with ${status}: ${error}")
    endif()
    # QCommandLineParser prints argv[0] in its usage line: the page names the installed program.
    string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")
    string(REPLACE ";" "@SEMICOLON@" text "${text}")
    string(REPLACE "[" "@OPEN@" text "${text}")
    string(REPLACE "]" "@CLOSE@" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(roff_escape out text)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REPLACE "@SEMICOLON@" ";" text "${text}")
    string(REPLACE "@OPEN@" "[" text "${text}")
    string(REPLACE "@CLOSE@" "]" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Verbatim block: the help's own line breaks and alignment.
function(verbatim out text)
    # Blank lines only: the first option line keeps its indentation.
    string(REGEX REPLACE "^\n+" "" text "${text}")
    string(REGEX REPLACE "[ \n]+$" "" text "${text}")
    roff_escape(text "${text}")
    set(${out} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

# A command's help as a man section: its usage line verbatim, its description as a filled paragraph
# (long lines wrap to the reader's terminal), then its option table verbatim.
function(command_section out text)
    string(FIND "${text}" "\nOptions:\n" options_at)
    if(options_at LESS 0)
        verbatim(block "${text}")
        set(${out} "${block}" PARENT_SCOPE)
        return()
    endif()
    string(SUBSTRING "${text}" 0 ${options_at} head)
    math(EXPR options_at "${options_at} + 1")
    string(SUBSTRING "${text}" ${options_at} -1 options)
    string(FIND "${head}" "\n" usage_end)
    if(usage_end LESS 0)
        set(usage "${head}")
        set(description "")
    else()
        string(SUBSTRING "${head}" 0 ${usage_end} usage)
        math(EXPR usage_end "${usage_end} + 1")
        string(SUBSTRING "${head}" ${usage_end} -1 description)
    endif()
    verbatim(usage_block "${usage}")
    string(STRIP "${description}" description)
    roff_escape(description "${description}")
    verbatim(options_block "${options}")
    set(${out} "${usage_block}.PP\n${description}\n.PP\n${options_block}" PARENT_SCOPE)
endfunction()

string(TOUPPER "${NAME}" title)
roff_escape(name_roff "${NAME}")
roff_escape(summary_roff "${SUMMARY}")
roff_escape(description_roff "${DESCRIPTION}")
set(page ".\\\" Generated from '${NAME} --help' by tools/man_page.cmake; do not edit.\n")
string(APPEND page ".TH \"${title}\" 1 \"\" \"${NAME} ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\n${name_roff} \\- ${summary_roff}\n")

help_text_of(help)
if(KIND STREQUAL "cli")
    string(APPEND page ".SH SYNOPSIS\n.B ${name_roff}\n.I command\n[\\fIoptions\\fR]\n.br\n.B ${name_roff}\n\\-\\-help | \\-\\-version\n")
    string(APPEND page ".SH DESCRIPTION\n${description_roff}\nEach command prints its options with \\fB${name_roff} \\fIcommand\\fB \\-\\-help\\fR; they are listed below.\n")
    string(REPLACE "\n" ";" lines "${help}")
    set(commands "")
    set(in_commands OFF)
    string(APPEND page ".SH COMMANDS\n")
    foreach(line IN LISTS lines)
        if(line STREQUAL "Commands:")
            set(in_commands ON)
        elseif(in_commands AND line MATCHES "^  ([a-z][a-z0-9-]*)  +(.*)$")
            list(APPEND commands "${CMAKE_MATCH_1}")
            roff_escape(command_roff "${CMAKE_MATCH_1}")
            roff_escape(description_roff "${CMAKE_MATCH_2}")
            string(APPEND page ".TP\n.B ${command_roff}\n${description_roff}\n")
        elseif(in_commands AND line STREQUAL "")
            set(in_commands OFF)
        endif()
    endforeach()
    if(NOT commands)
        message(FATAL_ERROR "man_page.cmake: '${PROGRAM} --help' lists no commands under \"Commands:\"")
    endif()

    # The options every command shares, and the scenario options of the commands that start from one.
    set(scenario_commands "")
    set(command_sections "")
    foreach(command IN LISTS commands)
        help_text_of(command_help ${command})
        if(command_help MATCHES "--scenario <FILE>")
            list(APPEND scenario_commands "${command}")
        endif()
        command_section(block "${command_help}")
        string(APPEND command_sections ".SS ${command}\n${block}")
    endforeach()
    string(APPEND page ".SH COMMON OPTIONS\n.TP\n.BR \\-h \", \" \\-\\-help\nAfter a command: that command's options. Alone: the list of commands.\n")
    string(APPEND page ".TP\n.B \\-\\-version\nAlone: print the version.\n")
    if(scenario_commands)
        roff_escape(scenario_list "${scenario_commands}")
        string(REPLACE ";" "\\fR, \\fB" scenario_list "${scenario_list}")
        set(scenario_list "\\fB${scenario_list}\\fR")
        string(APPEND page ".PP\nThe commands that start from a scenario (${scenario_list}) take \\fB\\-\\-scenario\\fR \\fIFILE\\fR "
                           "(a scenario file or a Hugging Face config.json) and the scenario flags on top of it; "
                           "see \\fBestimate\\fR below for the full list.\n")
    endif()
    string(APPEND page ".SH COMMAND OPTIONS\n${command_sections}")
    string(APPEND page ".SH EXIT STATUS\n.TP\n.B 0\nsuccess\n.TP\n.B 1\nthe command failed (for example a file could not be written)\n"
                       ".TP\n.B 2\nbad input: the message on standard error names the flag or field and the rule\n"
                       ".TP\n.B 3\n\\fBtrain\\fR: the loss diverged\n")
else()
    # A QCommandLineParser help: "Usage: ...", the description, then "Options:".
    string(FIND "${help}" "Options:" options_at)
    if(options_at LESS 0)
        message(FATAL_ERROR "man_page.cmake: '${PROGRAM} --help' has no \"Options:\" section")
    endif()
    string(SUBSTRING "${help}" 0 ${options_at} head)
    string(SUBSTRING "${help}" ${options_at} -1 options)
    string(REGEX REPLACE "^Options:\n" "" options "${options}")
    string(REGEX REPLACE "^Usage:[^\n]*\n" "" description "${head}")
    string(STRIP "${description}" description)
    roff_escape(description "${description}")
    verbatim(options_block "${options}")
    string(APPEND page ".SH SYNOPSIS\n.B ${name_roff}\n[\\fIoptions\\fR]\n")
    string(APPEND page ".SH DESCRIPTION\n${description_roff}\n.PP\n${description}\n")
    string(APPEND page ".PP\nWithout a display (neither DISPLAY nor WAYLAND_DISPLAY set) it renders offscreen: "
                       "\\fB\\-\\-screenshot\\fR, \\fB\\-\\-handout\\fR, \\fB\\-\\-slides\\fR and the \\fB\\-\\-list\\fR options still work.\n")
    string(APPEND page ".SH OPTIONS\n${options_block}")
    string(APPEND page ".SH ENVIRONMENT\n.TP\n.B LSE_SHARED_DIR\nThe course's shared folder (cs336/tokenizer/gpt2_vocab.json and gpt2_merges.txt "
                       "for the Tokenization page); without it the app looks in its installed data folder.\n")
    string(APPEND page ".SH EXIT STATUS\n.TP\n.B 0\nsuccess\n.TP\n.B 2\na command\\-line error: the message names the flag and what it accepts\n")
endif()
if(DEFINED SEE_ALSO)
    string(APPEND page ".SH SEE ALSO\n.BR ${SEE_ALSO} (1)\n")
endif()

file(WRITE "${OUTPUT}.tmp" "${page}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
