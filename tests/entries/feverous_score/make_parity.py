"""Build the parity cases of this entry with the official FEVEROUS code.

    python tests/entries/feverous_score/make_parity.py OFFICIAL_DIR OUT_DIR

``OFFICIAL_DIR`` holds a checkout of Raldir/FEVEROUS as ``FEVEROUS`` (``jsonlines`` importable;
``cleantext``, which evaluate.py imports and never calls, may be absent; jsonlines 3.1.0, the newest
the FEVEROUS package allows). The official outputs
are written to ``OUT_DIR/cases.jsonl`` beside the case folders.
"""

import contextlib
import functools
import io
import json
import re
import shutil
import sys
import types
from pathlib import Path

sys.modules.setdefault("cleantext", types.SimpleNamespace(clean=None))
sys.modules["orjson"] = sys.modules["ujson"] = None  # jsonlines 3.1 then reads with json
sys.path.insert(0, str(Path(sys.argv[1]) / "FEVEROUS" / "src"))
from feverous.evaluation import evaluate as official_evaluate  # noqa: E402
from feverous.evaluation import feverous_scorer  # noqa: E402

KEYS = ("strict_score", "label_accuracy", "evidence_precision", "evidence_recall", "evidence_f1")
OUT = Path(sys.argv[2])
shutil.rmtree(OUT, ignore_errors=True)
OUT.mkdir(parents=True)
HEADER = {
    "id": "",
    "claim": "",
    "label": "",
    "evidence": [],
    "annotator_operations": [],
    "challenge": "",
}
TYPES = "sentence|header_cell|cell|table_caption|item|section|title|table|list"
EXACT = re.compile(r"(.+?)_(" + TYPES + r")(?:_(\d+(?:_\d+)*))?", re.DOTALL)


def exact(el):
    m = EXACT.fullmatch(el)
    return [m.group(1), m.group(2), m.group(3) or ""]


def claim(cid, label, sets, plabel, pev, **extra):
    return {
        "id": cid,
        "claim": f"claim {cid}",
        "label": label,
        "evidence": [{"content": s, "context": {}} for s in sets],
        "predicted_label": plabel,
        "predicted_evidence": pev,
        **extra,
    }


def official_file(path, **bounds):
    real = official_evaluate.feverous_score
    official_evaluate.feverous_score = functools.partial(real, **bounds)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return dict(zip(KEYS, official_evaluate.feverous_evaluation(str(path))))
    except (ZeroDivisionError, IndexError, KeyError, AttributeError, AssertionError, TypeError):
        return None
    finally:
        official_evaluate.feverous_score = real


def official_exact(lines, **bounds):
    preds = [
        {
            "predicted_label": row["predicted_label"],
            "predicted_evidence": [exact(e) for e in row["predicted_evidence"]],
            "label": row["label"],
            "evidence": [[exact(e) for e in s["content"]] for s in row["evidence"]],
        }
        for row in lines
    ]
    try:
        return dict(zip(KEYS, feverous_scorer.feverous_score(preds, **bounds)))
    except ZeroDivisionError:
        return None


cases = []


def case(name, lines, options=None, header=HEADER, exact_reading=False, note="", texts=None):
    """``texts``: the lines' JSON texts as written (to spell a line in its own way)."""
    folder = OUT / name
    folder.mkdir()
    rows = ([header] if header is not None else []) + lines
    texts = texts or [json.dumps(r, ensure_ascii=False) for r in rows]
    (folder / "predictions.jsonl").write_text(
        "".join(text + "\n" for text in texts), encoding="utf-8", newline=""
    )
    options = dict(options or {})
    if exact_reading:
        expected = official_exact(lines, **options)
        options["id_reading"] = "exact"
    else:
        expected = official_file(folder / "predictions.jsonl", **options)
    cases.append({"case": name, "options": options, "expected": expected, "note": note})


def submission_case(name, lines):
    folder = OUT / name
    folder.mkdir()
    gold = [HEADER] + [{k: row[k] for k in ("id", "claim", "label", "evidence")} for row in lines]
    sub = [
        {
            "predicted_label": row["predicted_label"],
            "predicted_evidence": [official_evaluate_split(e) for e in row["predicted_evidence"]],
        }
        for row in lines
    ]
    (folder / "references.jsonl").write_text("".join(json.dumps(r) + "\n" for r in gold))
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in sub))
    actual = [
        {
            "label": row["label"],
            "evidence": [
                [official_evaluate_split(e) for e in s["content"]] for s in row["evidence"]
            ],
        }
        for row in lines
    ]
    try:
        expected = dict(zip(KEYS, feverous_scorer.feverous_score([dict(s) for s in sub], actual)))
    except ZeroDivisionError:
        expected = None
    cases.append(
        {
            "case": name,
            "references": True,
            "options": {},
            "expected": expected,
            "note": "a prepare_submission.py file with the gold dataset file: the official blind mode",
        }
    )


def official_evaluate_split(el):  # prepare_submission.py's reading, restated
    p = el.split("_")
    if "table_caption" not in el and "header_cell" not in el:
        return [p[0], p[1], "_".join(p[2:])]
    return [p[0], "_".join(p[1:3]), "_".join(p[3:])]


space = [
    json.loads(text)
    for text in (
        Path(__file__).resolve().parents[3]
        / "spaces"
        / "feverous_score"
        / "examples"
        / "dev_predictions.jsonl"
    )
    .read_text()
    .splitlines()
][1:]
case("space-example", space, note="the Space's example file")
case("space-example-max-evidence-none", space, {"max_evidence": None, "max_evidence_cell": None})
case(
    "space-example-bounds-zero",
    space,
    {"max_evidence": 0, "max_evidence_cell": 0},
    note="precision 1.0 everywhere: nothing kept",
)
case(
    "nei-no-evidence",
    [claim(1, "NOT ENOUGH INFO", [], "NOT ENOUGH INFO", [])],
    note="no NEI exemption: strict 0, the rest 1",
)
case(
    "precision-recall-zero",
    [claim(1, "SUPPORTS", [["A_sentence_0"]], "SUPPORTS", ["B_sentence_1"])],
    note="official ZeroDivisionError",
)
case("header-only", [], note="no claim: official ZeroDivisionError")
case(
    "id-without-underscore",
    [claim(1, "SUPPORTS", [["A_sentence_0"]], "SUPPORTS", ["A_sentence_0", "Bare"])],
    note="official IndexError",
)
six = [f"P_sentence_{i}" for i in range(6)]
cells = [f"T_cell_0_{i}_0" for i in range(27)]
case(
    "budgets",
    [
        claim(1, "SUPPORTS", [["P_sentence_5"]], "SUPPORTS", six),
        claim(
            2, "REFUTES", [["T_cell_0_26_0", "P_sentence_0"]], "REFUTES", [*cells, "P_sentence_0"]
        ),
        claim(
            3,
            "REFUTES",
            [["T_cell_0_3_0", "T_header_cell_0_0_0", "T_table_caption_0"]],
            "refutes",
            ["T_header_cell_0_0_0", "T_table_caption_0", "T_cell_0_3_0", "T_item_0_1"],
        ),
    ],
    note="6th sentence and 26th cell dropped",
)
case(
    "budgets-custom",
    [
        claim(1, "SUPPORTS", [["P_sentence_5"]], "SUPPORTS", six),
        claim(
            2, "REFUTES", [["T_cell_0_26_0", "P_sentence_0"]], "REFUTES", [*cells, "P_sentence_0"]
        ),
    ],
    {"max_evidence": 6, "max_evidence_cell": 30},
)
under = [
    claim(
        1,
        "SUPPORTS",
        [["Wolfgang_Niedecken_cell_0_1_2"]],
        "SUPPORTS",
        [f"Wolfgang_Niedecken_cell_0_0_{i}" for i in range(5)] + ["Wolfgang_Niedecken_cell_0_1_2"],
    ),
    claim(
        2,
        "REFUTES",
        [["Periodic_table_caption_0", "X_header_cell_0_1_1"]],
        "REFUTES",
        ["Periodic_table_caption_0", "X_header_cell_0_1_1", "Y_sentence_1"],
    ),
    claim(3, "SUPPORTS", [["A_B_sentence_1"], ["A_B_title"]], "SUPPORTS", ["A_B_title"]),
]
case(
    "underscore-pages-official",
    under,
    note="misread types: the 6th misread cell counts against the sentence budget",
)
case(
    "underscore-pages-exact",
    under,
    exact_reading=True,
    note="id_reading exact; expected from the official feverous_score on the ids split at their type",
)
case(
    "duplicates-and-case",
    [
        claim(
            1,
            "SUPPORTS",
            [["A_sentence_0", "A_sentence_1"]],
            "Supports",
            ["A_sentence_0", "A_sentence_0", "A_sentence_1"],
        ),
        claim(2, "NOT ENOUGH INFO", [["N_sentence_3"]], "not enough info", ["N_sentence_3"]),
        claim(3, "REFUTES", [[], ["R_sentence_2"]], "REFUTES", []),
        claim(4, "SUPPORTS", [["S_cell_0_0_0"]], "REFUTES", ["S_cell_0_0_0", "Q_sentence_0"]),
    ],
    note="duplicates count; labels upper-cased; an empty set is complete",
)
case(
    "unicode",
    [
        claim(
            1,
            "SUPPORTS",
            [["Beyoncé_sentence_0", "日本_cell_0_1_1"]],
            "SUPPORTS",
            ["Beyoncé_sentence_0", "日本_cell_0_1_1", "Beyonce\u0301_sentence_0"],
        )
    ],
    note="precomposed and combining forms are different pages",
)
# Per-claim precisions a/b whose mean depends on the order of the additions (left to right and
# reversed differ in the last bit): the official loop's order.
fractions = [(3, 7), (3, 5), (5, 9), (2, 5), (4, 9), (4, 11), (1, 9), (3, 9), (6, 10)]
order = []
for n, (hits, kept) in enumerate(fractions):
    gold = [f"G{n}_sentence_{i}" for i in range(hits)]
    wrong = [f"W{n}_cell_0_0_{i}" for i in range(kept - hits)]
    order.append(claim(n, "REFUTES", [gold], "REFUTES", gold + wrong))
case("float-order", order, note="precision sums that differ by order: the official order")
spelt = [json.dumps(r, ensure_ascii=False) for r in [HEADER, *space[:4]]]
spelt[0] = "\ufeff" + spelt[0]  # a byte order mark, skipped by jsonlines on any line
spelt[2] = "\x1e" + spelt[2].replace('"id": 2', '"id": NaN')  # a record separator; a NaN id
case("marks-and-nan", space[:4], texts=spelt, note="jsonlines 3.1 skips one BOM or RS per line")
submission_case("submission-with-gold", space)
(OUT / "cases.jsonl").write_text(
    "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8"
)
for c in cases:
    print(c["case"], c["expected"])
