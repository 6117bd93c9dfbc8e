"""Small hand-made KILT record sets for the scoring tests, each aimed at one official rule."""

from __future__ import annotations

from typing import Any


def out(answer: Any = None, pages: Any = None, **extra: Any) -> dict[str, Any]:
    """A KILT output: ``answer`` if given, ``provenance`` from a list of page ids if given."""
    output: dict[str, Any] = dict(extra)
    if answer is not None:
        output["answer"] = answer
    if pages is not None:
        output["provenance"] = [{"wikipedia_id": p} for p in pages]
    return output


# Ids matched by str(id).strip(); a blank answer; an answer right but with R-precision 0.5 (no
# KILT credit); a guess for an id no gold has (ignored).
IDS_AND_CREDIT = (
    [
        {"id": 1, "input": "q", "output": [out("suicide", ["10"])]},
        {"id": " q2", "input": "q", "output": [out("cat", ["7", 8]), out("the cat", [7])]},
        {"id": "3", "input": "q", "output": [out("dog", ["1", "2"]), out("big dog")]},
        {"id": 4, "input": "q", "output": [out("x. y", ["5"])]},
    ],
    [
        {"id": 99, "output": [out("anything", ["10"])]},
        {"id": "3 ", "output": [out("a  dog", ["1", "9"])]},
        {"id": "1 ", "output": [out("   ", ["10"])]},
        {"id": "q2", "output": [out("The Cat!", [" 7 ", "9", "8"])]},
        {"id": "4", "output": [out("...", [5])]},
    ],
)

# Evidence sets ranked as units: {1, 2} complete only at its last page, {3} alone, a set repeated
# (counted once), an empty provenance list (a set no guess can complete) and an output without
# provenance (no set); a page in no set; a page repeated in the guess (counted once).
EVIDENCE_SETS = (
    [
        {
            "id": "e1",
            "output": [
                out("Paris", ["1", "2"]),
                out("paris", [2, 1]),
                out("Lutetia", ["3"]),
                out("City of Light", []),
                out("the capital"),
            ],
        },
        {"id": "e2", "output": [out("Rome", ["4", "5", "6"])]},
        {"id": "e3", "output": [out("the", ["8"])]},
    ],
    [
        {
            "id": "e1",
            "output": [
                out(
                    "Paris",
                    None,
                    provenance=[
                        {"wikipedia_id": "2", "text": "Nothing here."},
                        {"wikipedia_id": "9", "text": "The city of PARIS, France"},
                        {"wikipedia_id": " 2"},
                        {"wikipedia_id": "3"},
                        {"wikipedia_id": 1},
                    ],
                )
            ],
        },
        {"id": "e2", "output": [out("Rome", ["6", "5", "4", "7"])]},
        {
            "id": "e3",
            "output": [out("", None, provenance=[{"wikipedia_id": 9, "text": "no answer"}])],
        },
    ],
)

# With several rank keys ids are the values joined by "+": ("1+2", "3") and ("1", "2+3") collide.
JOINED_KEYS = (
    [
        {
            "id": 1,
            "output": [{"answer": "a", "provenance": [{"wikipedia_id": "1+2", "section": "3"}]}],
        }
    ],
    [{"id": 1, "output": [{"answer": "a", "provenance": [{"wikipedia_id": 1, "section": "2+3"}]}]}],
)
