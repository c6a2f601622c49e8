#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ./dev.sh install PREFIX and ./dev.sh uninstall PREFIX (their install and uninstall steps, on an
# existing build): uninstall removes exactly the installed files and the folders the install created,
# and keeps what was in PREFIX before.
#   test_dev_sh_install.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source_dir="$1" build_dir="$2" work="$3"
# shellcheck source=../../dev.sh
source "${source_dir}/dev.sh"

failures=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }

rm -rf "$work"
mkdir -p "$work"

# A prefix with something in it already: a man page of another program in a folder we also use.
existing="$work/existing"
mkdir -p "$existing/share/man/man1"
echo other > "$existing/share/man/man1/other.1"
install_build_to "$existing" "$build_dir"
records="$(install_records_dir "$existing")"
[[ -x "$existing/bin/llm-explorer-cli" ]] || fail "install did not put bin/llm-explorer-cli in $existing"
[[ -s "$records/install_manifest.txt" ]] || fail "install kept no manifest in $records"
mapfile -t installed < "$records/install_manifest.txt"
for file in "${installed[@]}"; do
    [[ -f "$file" ]] || fail "the manifest names $file, which is not installed"
done
uninstall_from "$existing"
for file in "${installed[@]}"; do
    [[ ! -e "$file" ]] || fail "uninstall left $file"
done
[[ -f "$existing/share/man/man1/other.1" ]] || fail "uninstall removed a file it did not install"
left="$(cd "$existing" && find . | sort | tr '\n' ' ')"
[[ "$left" == ". ./share ./share/man ./share/man/man1 ./share/man/man1/other.1 " ]] \
    || fail "uninstall left more (or less) than what was there before: $left"

# A prefix that did not exist: uninstall leaves nothing, not even the prefix.
fresh="$work/fresh/prefix"
install_build_to "$fresh" "$build_dir"
uninstall_from "$fresh"
[[ ! -e "$work/fresh" ]] || fail "uninstall left $(cd "$work" && find fresh | tr '\n' ' ')"

# Uninstalling where nothing was installed is refused with a message naming the manifest.
if message="$( (uninstall_from "$work/nothing") 2>&1)"; then
    fail "uninstall of an empty prefix succeeded"
elif [[ "$message" != *install_manifest.txt* ]]; then
    fail "uninstall of an empty prefix did not name the manifest: $message"
fi

# Without exactly one PREFIX both commands are usage errors (exit 2, naming PREFIX), before any build.
for arguments in "install" "uninstall" "install a b"; do
    status=0
    # shellcheck disable=SC2086
    message="$(bash "${source_dir}/dev.sh" $arguments 2>&1)" || status=$?
    [[ $status -eq 2 && "$message" == *PREFIX* ]] \
        || fail "./dev.sh $arguments: exit $status (expected 2 naming PREFIX): ${message%%$'\n'*}"
done

# A relative PREFIX is relative to the folder dev.sh was started from, not to the project.
message="$(cd "$work" && bash "${source_dir}/dev.sh" uninstall rel/prefix/ 2>&1)" || true
[[ "$message" == *"nothing was installed into $work/rel/prefix by"* ]] \
    || fail "./dev.sh uninstall rel/prefix/ started in $work did not look in $work/rel/prefix: $message"

((failures == 0)) || { printf '%d failures\n' "$failures" >&2; exit 1; }
rm -rf "$work"
echo "ok: install and uninstall into $work"
