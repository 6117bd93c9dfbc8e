"""Random AVeriTeC rows for the harness and the differential checks, biased to where the
tokens and METEOR are fragile: dashes inside words (nltk 3.10 splits U+2012-U+2015), leading
apostrophes, curly quotes and guillemets after a period (punkt), stems and WordNet synonyms,
repeated words, Unicode that Python's ``re`` and the ``regex`` module class differently,
empty and one-character answers, "No answer could be found.", Boolean answers, questions asked
twice, more than ten predicted pairs and string evidence."""

from __future__ import annotations

import random

VERDICTS = ["Supported", "Refuted", "Not Enough Evidence", "Conflicting Evidence/Cherrypicking"]
CLAIM_TYPES = ["Numerical Claim", "Position Statement", "Event/Property Claim", "Causal Claim",
               "Quote Verification"]  # fmt: skip
ANSWER_TYPES = ["Extractive", "Abstractive", "Boolean", "Unanswerable"]
SYNONYMS = [
    ["run", "running", "ran", "runs"], ["car", "automobile", "auto", "cars"],
    ["big", "large", "huge", "bigger"], ["say", "said", "says", "stated"],
    ["buy", "bought", "purchase", "purchased"], ["vaccine", "vaccines", "vaccinated"],
    ["election", "elections", "vote", "voted", "ballot"], ["begin", "start", "began", "started"],
    ["show", "showed", "demonstrate", "prove"], ["money", "cash", "funds", "dollars"],
    ["die", "died", "death", "dead"], ["child", "children", "kid", "kids"],
    ["law", "laws", "legislation", "bill", "act"], ["increase", "rise", "rose", "grow"],
    ["true", "correct", "accurate"], ["photo", "photograph", "image", "picture"],
    ["city", "cities", "town"], ["study", "studies", "research"],
]  # fmt: skip
PLAIN = ("the a of to in on for is was did what when where who how that it there and not no yes "
         "by from with claim source report news Nigeria WHO 2020 U.S. Dr. Mr. e.g. etc. vs. St. "
         "Jan. No. 5 1,000 3.5 $5 50% #tag @user").split()  # fmt: skip
APOSTROPHES = ["'tis", "'em", "'Cause", "rock 'n' roll", "'Fracking'", "'90s", "don't", "can't",
               "I'm", "y'all", "o'clock", "''quoted''", "'s", "'M'", "'d", "'ll", "Jones'",
               "'hello'", "`quoted'", "``double''", "'1", "'_x", "'\u00c9lan", "'e\u0301te\u0301"]  # fmt: skip
DASHES = ["\u2012", "\u2013", "\u2014", "\u2015", "-", "--", "\u2010", "\u2212"]
UNICODE = ["e\u0301", "cafe\u0301", "x\u00b2", "\u00b2nd", "\u00bd", "\x1c", "a\x1fb", "\u00a0",
           "\u200d", "\u0394\u03b5\u03bb\u03c4\u03b1", "\u4e2d\u6587", "\u0663\u0664", "\u2160",
           "na\u00efve", "\u00df", "\u2026", "\u0915\u093f", "\ufb01"]  # fmt: skip
PUNCTUATION = [
    "...",
    "?!",
    "\u2014",
    "'",
    "\u201c\u201d",
    "-",
    ".",
    ",",
    "()",
    "``",
    "--",
    "\u2026",
]
ENDINGS = [".", "?", "", "...", ". ", ".\u201d", ".\u2019", ".\u00bb", ".)", '."', "!"]
QUOTES = [("\u201c", "\u201d"), ("\u2018", "\u2019"), ("\u00ab", "\u00bb"), ('"', '"'), ("(", ")")]
NO_ANSWER = "No answer could be found."


def word(rng: random.Random) -> str:
    x = rng.random()
    if x < 0.35:
        found = rng.choice(rng.choice(SYNONYMS))
        return found.capitalize() if rng.random() < 0.2 else found
    if x < 0.62:
        return rng.choice(PLAIN)
    if x < 0.72:
        return rng.choice(APOSTROPHES)
    if x < 0.82:
        return rng.choice(PLAIN) + rng.choice(DASHES) + rng.choice(rng.choice(SYNONYMS))
    if x < 0.9:
        return rng.choice(UNICODE)
    return rng.choice(PUNCTUATION)


def text(rng: random.Random, low: int = 1, high: int = 12) -> str:
    x = rng.random()
    if x < 0.03:
        return ""
    if x < 0.06:
        return rng.choice(["a", ".", "?", "No", "Yes", "'", "\u2014", " "])
    words = [word(rng) for _ in range(rng.randint(low, high))]
    if len(words) > 1 and rng.random() < 0.15:  # a repeated word
        k = rng.randrange(len(words))
        words[k:k] = [words[k]] * rng.randint(1, 3)
    sentence = " ".join(words) + rng.choice(ENDINGS)
    if rng.random() < 0.15:  # a quoted sentence, then another (punkt's boundary)
        opening, closing = rng.choice(QUOTES)
        sentence = f"He said {opening}{sentence}{closing} Then {word(rng)} {word(rng)}."
    return sentence


def _variant(rng: random.Random, source: str) -> str:
    """A text near ``source``: words dropped, swapped or replaced."""
    words = source.split()
    for _ in range(rng.randint(0, 3)):
        if not words:
            break
        k = rng.randrange(len(words))
        change = rng.random()
        if change < 0.4:
            words[k] = word(rng)
        elif change < 0.7:
            del words[k]
        else:
            words.insert(k, words[k])
    return " ".join(words)


def reference(rng: random.Random, index: int) -> dict:
    questions = []
    for _ in range(rng.randint(1, 5)):
        question = (
            text(rng, 2, 10) if not questions or rng.random() > 0.15 else questions[-1]["question"]
        )
        answers = []
        for _ in range(rng.choice([0, 1, 1, 1, 1, 2, 3])):
            kind = rng.choice(ANSWER_TYPES)
            answer = {"answer": NO_ANSWER if rng.random() < 0.08 else text(rng, 1, 15),
                      "answer_type": kind, "boolean_explanation": None}  # fmt: skip
            if kind == "Boolean":
                answer["answer"] = rng.choice(["Yes", "No", "yes", "No."])
                answer["boolean_explanation"] = text(rng, 1, 12)
            answers.append(answer)
        questions.append({"question": question, "answers": answers})
    return {
        "id": str(index),
        "label": rng.choice(VERDICTS),
        # a type listed twice counts twice in the scores by type
        "claim_types": [rng.choice(CLAIM_TYPES) for _ in range(rng.randint(1, 3))],
        "questions": questions,
        "justification": text(rng, 3, 25),
    }


def prediction(rng: random.Random, gold: dict, index: int) -> dict:
    pairs = []
    gold_pairs = [(q["question"], a["answer"]) for q in gold["questions"] for a in q["answers"]]
    gold_pairs += [(q["question"], NO_ANSWER) for q in gold["questions"] if not q["answers"]]
    for _ in range(rng.choice([1, 1, 2, 3, 4, 6, 12])):
        if gold_pairs and rng.random() < 0.6:
            question, answer = rng.choice(gold_pairs)
            pairs.append({"question": _variant(rng, question), "answer": _variant(rng, answer)})
        else:
            pairs.append({"question": text(rng, 2, 10), "answer": text(rng, 1, 12)})
    label = gold["label"] if rng.random() < 0.6 else rng.choice([*VERDICTS, "True", ""])
    row = {"id": str(index), "label": label, "evidence": pairs, "string_evidence": None}
    # The 2023 edition's fields: questions in the gold's shape, and a justification.
    row["questions"] = _questions_like(rng, gold) if rng.random() < 0.7 else None
    if rng.random() < 0.6:
        row["justification"] = _variant(rng, gold["justification"])
    else:
        row["justification"] = text(rng, 3, 20) if rng.random() < 0.3 else None
    return row


def _questions_like(rng: random.Random, gold: dict) -> list[dict]:
    questions = []
    for _ in range(rng.choice([1, 2, 3, 5, 12])):
        if rng.random() < 0.6:
            source = rng.choice(gold["questions"])
            question = _variant(rng, source["question"])
            answers = [
                {
                    **a,
                    "answer": _variant(rng, a["answer"])
                    if a["answer_type"] != "Boolean"
                    else a["answer"],
                }
                for a in source["answers"]
            ]
        else:
            question = text(rng, 2, 10)
            answers = [
                {
                    "answer": text(rng, 1, 10),
                    "answer_type": "Extractive",
                    "boolean_explanation": None,
                }
            ][: rng.randint(0, 1)]
        questions.append({"question": question, "answers": answers})
    return questions


def random_inputs(rng: random.Random, n: int, edition: str = "any") -> dict:
    """``n`` claims as ``compute()`` rows that every edition scores (``edition`` "2024" or
    "2023": also string evidence and predictions without evidence, which 2025 refuses)."""
    references = [reference(rng, k) for k in range(n)]
    predictions = [prediction(rng, gold, k) for k, gold in enumerate(references)]
    if edition in ("2024", "2023"):
        for row in predictions:
            x = rng.random()
            if x < 0.08:
                row["string_evidence"] = [text(rng) for _ in range(rng.randint(1, 3))]
            elif x < 0.12:
                row["string_evidence"], row["evidence"] = [text(rng)], None
                row["questions"] = None
            elif x < 0.14:
                row["evidence"] = []
    for row in references:  # one answer as a dict: the scorers take it as a list of one
        for question in row["questions"]:
            if len(question["answers"]) == 1 and rng.random() < 0.1:
                question["answers"] = question["answers"][0]
    return {"predictions": predictions, "references": references}
