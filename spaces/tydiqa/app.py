"""Gradio Space of ``tydiqa``: the official TyDi QA primary-task scorer (tydi_eval.py), bit for bit."""

from pathlib import Path

import gradio as gr
import pandas as pd

from taskeval.space import FIGURE_WIDTH, FONT_SIZE, launch, metric_module, space_spec

EXAMPLES = Path(__file__).resolve().parent / "examples"
best_threshold = metric_module("tydiqa", "scoring").best_threshold


def controls() -> list:
    return [
        # No ``precision``: gradio would round 1.5 to 2 before the metric sees it.
        gr.Number(2, label="passage_non_null_threshold: votes for a non-null gold"),
        gr.Number(2, label="minimal_non_null_threshold: votes for a non-null gold"),
    ]


def read_controls(passage: float | None, minimal: float | None) -> tuple[None, dict]:
    options = {}
    for name, value in (
        ("passage_non_null_threshold", passage),
        ("minimal_non_null_threshold", minimal),
    ):
        if value is None:
            raise ValueError(f"{name}: enter a whole number of annotator votes")
        if float(value).is_integer():
            value = int(value)
        # What compute() refuses gets compute()'s own message.
        options[name] = metric_module("tydiqa", "scoring").check_threshold(name, value)
    return None, options


def breakdown(details: list[dict]) -> pd.DataFrame:
    """The details as a table; 64-bit example ids as text, which a browser would round."""
    frame = pd.DataFrame(details)
    if "example_id" in frame:
        frame["example_id"] = frame["example_id"].map(str)
    return frame


def _stats(details: list[dict], task: str) -> list[tuple[bool, bool, float, float]]:
    """The official sweep's ``(gold has, predicted has, credit, score)`` of each example. A
    missing prediction counts, officially, as predicting the opposite of the gold, score 0."""
    stats = []
    for d in details:
        gold = d[f"{task}_gold"]
        if not d["predicted"]:
            stats.append((gold, not gold, 0.0, 0.0))
            continue
        credit = float(d["passage_correct"] if task == "passage" else d["minimal_f1"])
        stats.append((gold, d[f"{task}_predicted"], credit, d[f"{task}_score"]))
    return stats


def _curve(points: list[tuple[bool, bool, float, float]]) -> tuple[list, list]:
    """Precision and recall at every score threshold, highest first, as the official sweep
    walks them (ties count as a whole)."""
    total_gold = sum(gold for gold, _, _, _ in points)
    ranked = sorted(points, key=lambda p: p[3], reverse=True)
    precision, recall = [], []
    correct = predicted = 0
    for k, (_, has, credit, score) in enumerate(ranked):
        correct += credit
        predicted += has
        if k + 1 < len(ranked) and ranked[k + 1][3] == score:
            continue
        precision.append(correct / predicted if predicted else 0.0)
        recall.append(correct / total_gold if total_gold else 0.0)
    return precision, recall


def pr_curves(details: list[dict], config: str | None = None):
    """Precision-recall curve per language for both tasks, the chosen threshold marked."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    # One panel above the other, FIGURE_WIDTH wide: legible on a phone (see taskeval.space).
    figure, axes = plt.subplots(2, 1, figsize=(FIGURE_WIDTH, 10.5))
    languages = sorted({d["language"] for d in details})
    colors = plt.colormaps["tab20"].resampled(max(len(languages), 1))
    for ax, task in zip(axes, ("passage", "minimal")):
        for i, language in enumerate(languages):
            stats = _stats([d for d in details if d["language"] == language], task)
            precision, recall = _curve(stats)
            ax.plot(recall, precision, color=colors(i), lw=1.4, label=language)
            # The dot: the metric's own best-F1 point (its ``{task}-best-threshold-*`` values).
            (f1, best_precision, best_recall, _), _ = best_threshold(stats)
            if f1:
                ax.plot(best_recall, best_precision, "o", color=colors(i), ms=7, mec="black")
        ax.set_title(f"{task} answer", fontsize=FONT_SIZE + 1)
        ax.set_xlabel("recall", fontsize=FONT_SIZE)
        ax.set_ylabel("precision", fontsize=FONT_SIZE)
        ax.tick_params(labelsize=FONT_SIZE)
        # A margin below 0 too: the two axes' "0.0" at one corner were drawn into each other.
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    figure.suptitle(
        "Precision vs recall by score threshold,\nper language (dot: best F1)",
        fontsize=FONT_SIZE + 1,
    )
    # One legend for both panels, below them: inside a panel it would cover the curves.
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(
        handles,
        labels,
        loc="lower center",
        ncol=min(len(labels), 4) or 1,
        fontsize=FONT_SIZE,
        frameon=False,
    )
    figure.tight_layout(rect=(0, 0.09, 1, 1))
    plt.close(figure)
    return figure


# Examples and file help are in the metric's contract.
SPEC = space_spec(
    "tydiqa",
    EXAMPLES,
    controls=controls,
    read_controls=read_controls,
    breakdown=breakdown,
    plot=pr_curves,
)

if __name__ == "__main__":
    launch(SPEC)
