#!/usr/bin/env bash
# Set up a virtual environment (.venv, or $TASKEVAL_VENV) with what the tests need, check lint
# and formatting, and run the test suite with pytest. Extra arguments go to pytest.
#
# By default the tests marked slow are left out (browsers, installs into new environments, the
# other Pythons and BLAS kernels, the Trainer in several processes): TASKEVAL_TESTS=all runs
# them too, as CI does (.ci/run), and so does a -m of your own.
#
# The browser tests drive Debian's Chromium (never a downloaded browser build) and need Noto's
# fonts for the scripts of the TyDi examples (Bengali, Telugu, Arabic, Korean, ...: without them
# Chromium draws empty boxes, which the 400 px layout checks would measure). Where they are
# missing they are installed with apt if this user may (root, or sudo without a password);
# otherwise every other test runs and the last line names the browser tests skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TASKEVAL_VENV:-.venv}
selection=(-m "not slow")
if [ "${TASKEVAL_TESTS:-}" = all ]; then
    selection=()
fi
for arg in "$@"; do
    if [ "$arg" = -m ] || [[ "$arg" == -m?* ]]; then
        selection=()
    fi
done

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e ".[test]"
bash scripts/install-official-fever.sh "$venv"

packages="chromium fonts-noto-core fonts-noto-cjk"
browser_ready() {
    command -v chromium >/dev/null &&
        [ -n "$(fc-list :lang=bn family 2>/dev/null)" ] &&
        [ -n "$(fc-list :lang=ko family 2>/dev/null)" ]
}
if [ ${#selection[@]} -eq 0 ]; then
    # The environments at both ends of the dependency ranges (tests/test_dependency_ends.py).
    bash scripts/dependency-ends.sh >/dev/null 2>&1 || bash scripts/dependency-ends.sh
    if ! browser_ready; then
        apt=()
        if [ "$(id -u)" = 0 ]; then
            apt=(apt-get)
        elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            apt=(sudo -n apt-get)
        fi
        if [ ${#apt[@]} -gt 0 ]; then
            # shellcheck disable=SC2086 # the package names, one word each
            "${apt[@]}" update -q >/dev/null &&
                DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q --no-install-recommends \
                    $packages >/dev/null ||
                echo "scripts/test.sh: apt-get could not install $packages" >&2
        fi
    fi
fi

"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
status=0
"$venv/bin/python" -m pytest "${selection[@]}" "$@" || status=$?
if [ ${#selection[@]} -gt 0 ]; then
    echo "scripts/test.sh: the tests marked slow were left out (browsers, new environments," \
        "other Pythons and BLAS kernels): TASKEVAL_TESTS=all bash scripts/test.sh runs them too"
elif ! browser_ready; then
    echo "scripts/test.sh: the browser tests were skipped (tests/test_spaces.py and" \
        "tests/test_space_layout.py in Chromium, tests/test_export.py::test_exported_space_in_chromium):" \
        "this machine lacks Chromium or Noto fonts and this user cannot install them;" \
        "to run them: sudo apt-get install $packages, then TASKEVAL_TESTS=all bash scripts/test.sh"
fi
exit "$status"
