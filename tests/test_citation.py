"""CITATION.cff: valid YAML with the fields citation tools read, at the package's version."""

from pathlib import Path

import yaml

import taskeval

CITATION = Path(__file__).resolve().parents[1] / "CITATION.cff"


def test_citation_file_names_this_version():
    data = yaml.safe_load(CITATION.read_text(encoding="utf-8"))
    assert data["cff-version"] == "1.2.0"
    assert data["version"] == taskeval.__version__
    assert data["title"] and data["authors"] and data["message"] and data["license"]
