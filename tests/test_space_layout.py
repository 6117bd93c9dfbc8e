"""Every Space as drawn, after a Compute of its example: the plot's texts and legend inside the
figure and clear of each other (their drawn boxes); on a phone's 400 px screen, in Chromium, each
uploaded file name on the screen, the plot's smallest text at least 9 px high; at 400 px and at
1280 px no number or name broken inside itself and no cell cut. Measured on the page (element
boxes, scroll widths, text line boxes); a screenshot of each page goes to
build/screenshots/<name>-400px.png (``TASKEVAL_SCREENSHOTS=spaces``: the Space's own
spaces/<name>/screenshot-400px.png)."""

from __future__ import annotations

import functools

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from test_spaces import (
    SPACES,
    _example_uploads,
    app_module,
    browser,  # noqa: F401 (the fixture)
    default_controls,
    screenshot_path,
)

import taskeval
from taskeval.space import _laid_out, column_widths, compute

WIDTH = 400
SMALLEST_TEXT_PX = 9

# Boxes (left, right) of the elements matched, and whether their text is cut (wider than shown).
BOXES = """(selector) => [...document.querySelectorAll(selector)].map(e => {
  const r = e.getBoundingClientRect();
  return {text: e.textContent.trim(), left: r.left, right: r.right, width: r.width,
          cut: e.scrollWidth > e.clientWidth + 1};
})"""

# Elements inside ``root`` that scroll sideways (their content wider than their box).
SIDEWAYS = """(root) => [...root.querySelectorAll('*')].filter(e => {
  const style = getComputedStyle(e);
  return ['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1;
}).map(e => e.className)"""

# Elements inside ``root`` reaching past the right edge of the screen (drawn or clipped).
BEYOND = """(root) => [...root.querySelectorAll('*')].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.right > document.documentElement.clientWidth + 1;
}).map(e => e.tagName + '.' + e.className)"""

# Words (numbers, names: runs of non-space characters) of the cells under ``root`` whose
# letters are drawn on more than one line.
BROKEN_WORDS = """(root) => {
  const broken = [];
  for (const cell of root.querySelectorAll('[role=gridcell] span, th span')) {
    for (const node of cell.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""

# The cells under ``root`` whose text reaches out of the cell (then cut, or drawn over the
# next cell).
CUT_CELLS = """(root) => [...root.querySelectorAll('[role=gridcell], th')].filter(cell => {
  const c = cell.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(cell);
  return [...range.getClientRects()].some(r =>
    r.width > 0 && (r.left < c.left - 1 || r.right > c.right + 1));
}).map(cell => cell.textContent.trim())"""

# The table's box: its width, its content's, and whether it scrolls sideways.
TABLE_BOX = """(root) => {
  const viewport = root.querySelector('.virtual-table-viewport');
  return {width: viewport.clientWidth, content: viewport.scrollWidth,
          scrolls: ['auto', 'scroll'].includes(getComputedStyle(viewport).overflowX),
          right: viewport.getBoundingClientRect().right};
}"""

TABLES = ("#scores", "#groups", "#breakdown")


def tables_drawn_whole(page, width: int) -> dict[str, dict]:
    """The page's tables after a Compute, at a screen ``width`` px wide: the page does not
    scroll sideways; no number or name broken over two lines, no cell's text cut; a table wider
    than its box scrolls in it. Returns each shown table's box (``TABLE_BOX``)."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    shown = {}
    for table in TABLES:
        if not page.locator(table).is_visible():
            continue
        root = page.locator(table)
        assert root.evaluate(BROKEN_WORDS) == [], table
        assert root.evaluate(CUT_CELLS) == [], table
        box = shown[table] = root.evaluate(TABLE_BOX)
        assert box["right"] <= width, (table, box)
        assert box["content"] <= box["width"] + 1 or box["scrolls"], (table, box)
    assert "#scores" in shown and "#breakdown" in shown
    return shown


def computed_page(browser, url: str, width: int):  # noqa: F811
    """The Space at ``url`` on a screen ``width`` px wide, its example computed, the intervals
    and the plot shown."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(url)
    page.locator("#placeholder").wait_for(state="visible", timeout=60_000)
    page.locator("#compute").click()
    # The interval column comes in a second step.
    interval = page.locator("#scores [role=gridcell][data-col='2']").filter(has_text="[")
    interval.first.wait_for(timeout=120_000)
    page.locator("#plot img").wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(1000)
    return page


@functools.cache
def example_page(name: str) -> tuple:
    """What Compute answers for the Space's example: the figure and the names of the scores."""
    spec = app_module(name).SPEC
    _, _, scores, *_, plot = compute(
        spec, "files", "", "", *_example_uploads(spec), *default_controls(spec)
    )
    return plot["value"], scores["value"]["score"].tolist()


@functools.cache
def example_tables(name: str) -> dict:
    """The tables the page shows for the Space's example, by element id."""
    spec = app_module(name).SPEC
    values = ("files", "", "", *_example_uploads(spec), *default_controls(spec))
    _, _, scores, groups, breakdown, *_ = _laid_out(spec, *values)
    tables = {"#scores": scores["value"], "#breakdown": breakdown["value"]}
    if groups["visible"]:
        tables["#groups"] = groups["value"]
    return tables


def words_px(frame) -> float:
    """What a table's columns take when as wide as their longest words alone (TyDi QA's long
    ids and scores do not fit a 1280 px page)."""
    from taskeval.space import _CELL_PX, _CHAR_PX, _characters

    texts = {c: [str(c), *map(str, frame[c].tolist())] for c in frame.columns}
    return sum(
        max(_characters(w) for t in column for w in t.split()) * _CHAR_PX + _CELL_PX
        for column in texts.values()
    )


def smallest_text_points(name: str) -> tuple[float, float, list[str]]:
    """The figure the Space draws for its example: its smallest font size (points) and its
    width (inches); and the names of the scores shown."""
    figure, scores = example_page(name)
    sizes = [
        t.get_fontsize() for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()
    ]
    return min(sizes), figure.get_figwidth(), scores


def _in_view(axis, tick) -> bool:
    low, high = sorted(axis.get_view_interval())
    return low - 1e-9 <= tick.get_loc() <= high + 1e-9


def drawn_boxes(figure) -> list[tuple[str, Bbox]]:
    """Each text the figure draws (titles, axis labels, tick labels, annotations, legend
    titles and entries) and each legend as a whole, with its box in the picture (pixels), as
    gradio's ``savefig`` lays them out."""
    canvas = FigureCanvasAgg(figure)  # what savefig draws a closed figure with
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = [*figure.texts]
    if getattr(figure, "_suptitle", None) is not None:
        texts.append(figure._suptitle)
    legends = [*figure.legends]
    for ax in figure.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        for axis in (ax.xaxis, ax.yaxis):
            texts += [t.label1 for t in axis.get_major_ticks() if _in_view(axis, t)]
        texts += ax.texts
        if ax.get_legend() is not None:
            legends.append(ax.get_legend())
    for legend in legends:
        texts += [legend.get_title(), *legend.get_texts()]
    texts = list({id(t): t for t in texts}.values())  # a suptitle is one of figure.texts
    boxes = [
        (f"text {t.get_text()!r}", t.get_window_extent(renderer))
        for t in texts
        if t.get_visible() and t.get_text().strip()
    ]
    return boxes + [("legend", legend.get_window_extent(renderer)) for legend in legends]


def overlapping(boxes: list[tuple[str, Bbox]], legend_texts: set[str]) -> list[tuple]:
    """Pairs of boxes drawn over each other (a legend and its own texts excepted)."""
    pairs = []
    for i, (one, a) in enumerate(boxes):
        for other, b in boxes[i + 1 :]:
            own = "legend" in (one, other) and ({one, other} - {"legend"}) <= legend_texts
            if not own and a.overlaps(b):
                pairs.append((one, other))
    return pairs


@pytest.mark.parametrize("name", SPACES)
def test_the_plot_draws_every_text_whole_and_apart(name):
    """Planted: FEVER's gold-label axis title under its three-line tick label, over the
    legend's title; GoldP's legend of three columns, wider than the figure ("no predictio")."""
    figure, _ = example_page(name)
    boxes = drawn_boxes(figure)
    assert any(label == "legend" for label, _ in boxes)
    legends = [*figure.legends, *(ax.get_legend() for ax in figure.axes if ax.get_legend())]
    own = {f"text {t.get_text()!r}" for lg in legends for t in [lg.get_title(), *lg.get_texts()]}
    picture = figure.bbox
    for label, box in boxes:
        assert picture.x0 <= box.x0 and box.x1 <= picture.x1, (label, box, picture)
        assert picture.y0 <= box.y0 and box.y1 <= picture.y1, (label, box, picture)
    assert overlapping(boxes, own) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", SPACES)
def test_space_on_a_400px_screen(name, browser, served):  # noqa: F811
    spec = app_module(name).SPEC
    points, inches, flat_scores = smallest_text_points(name)
    page = computed_page(browser, served(name), WIDTH)
    # Every score, value and interval whole (a table wider than the screen scrolls in its box).
    tables_drawn_whole(page, WIDTH)
    # ... every score's row, top to bottom, inside the table's box (no scrolling in it).
    table = page.locator("#scores").bounding_box()
    rows = page.locator("#scores [role=gridcell][data-col='0']")
    assert rows.count() == len(flat_scores)
    assert [r.text_content().strip() for r in rows.all()] == flat_scores
    for row in rows.all():
        box = row.bounding_box()
        assert (
            table["y"] <= box["y"] and box["y"] + box["height"] <= table["y"] + table["height"]
        ), row.text_content()
    intervals = page.evaluate(BOXES, "#scores [role=gridcell][data-col='2']")
    # (counts, such as eHealth-KD's correct_A, have none)
    assert any(c["text"].startswith("[") for c in intervals)
    assert all(c["text"] == "" or c["text"].startswith("[") for c in intervals)
    # The uploaded files' names, whole.
    names = page.evaluate(BOXES, "#references-files .filename, #predictions-files .filename")
    expected = sorted(p.name for side in spec.example_files.values() for p in side)
    assert sorted("".join(n["text"].split()) for n in names) == expected
    for box in names:
        assert 0 <= box["left"] and box["right"] <= WIDTH and not box["cut"], box
    # The plot: on the screen, its smallest text legible.
    shown = page.evaluate(BOXES, "#plot img")[0]
    assert 0 <= shown["left"] and shown["right"] <= WIDTH
    smallest_px = points * shown["width"] / (72 * inches)
    assert smallest_px >= SMALLEST_TEXT_PX, (points, inches, shown["width"])
    page.screenshot(path=str(screenshot_path(name, f"-{WIDTH}px")), full_page=True)
    # The "Check a submission" panel, opened, answers the example: its report on the
    # screen, its file names whole, nothing scrolling sideways.
    page.get_by_text("Check a submission", exact=True).click()
    page.locator("#check-button").click()
    page.wait_for_function(
        "name => document.querySelector('#check-summary textarea')?.value.startsWith(name + ' ')",
        arg=name,
        timeout=60_000,
    )
    assert not page.locator("#check-error").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    assert page.locator("#check").evaluate(SIDEWAYS) == []
    assert page.locator("#check").evaluate(BEYOND) == []
    names = page.evaluate(BOXES, "#check-files .filename")
    assert sorted("".join(n["text"].split()) for n in names) == expected
    for box in [*names, *page.evaluate(BOXES, "#check-summary, #check-problems")]:
        assert 0 <= box["left"] and box["right"] <= WIDTH and not box["cut"], box
    page.close()


def test_every_space_has_a_plot():
    assert all(app_module(name).SPEC.plot for name in taskeval.list_metrics())


@pytest.mark.slow
@pytest.mark.parametrize("name", SPACES)
def test_space_on_a_1280px_screen(name, browser, served):  # noqa: F811
    """Planted: the breakdown's columns as wide as their texts up to 20 characters, whatever
    the page's width (GoldP's ``why`` column then out of sight at 1280 px)."""
    page = computed_page(browser, served(name), 1280)
    words = {table: words_px(frame) for table, frame in example_tables(name).items()}
    for table, box in tables_drawn_whole(page, 1280).items():
        if words[table] <= box["width"]:  # all in sight, no scrolling
            assert box["content"] <= box["width"] + 1, (table, box, words[table])
    page.close()


def test_table_columns_fit_a_wide_page_and_hold_every_word():
    """Planted: texts as wide as 20 characters whatever the table's width (GoldP's breakdown
    then wider than a 1280 px page), a Korean word counted as narrow as a Latin one, a table
    of words alone wider than the page (a division by zero)."""
    import pandas as pd

    from taskeval.space import _CELL_PX, _CHAR_PX, _TABLE_PX

    texts = ["a text of many words wrapping at twenty characters"] * 2
    frame = pd.DataFrame({f"text {i}": texts for i in range(8)})
    frame["word"] = ["0.09189189189189195", "서울특별시"]
    widths = [float(w.removesuffix("px")) for w in column_widths(frame)]
    assert sum(widths) <= _TABLE_PX
    assert widths[-1] == int(19 * _CHAR_PX + _CELL_PX)  # the longest word whole
    assert all(w >= int(10 * _CHAR_PX + _CELL_PX) for w in widths[:-1])  # "characters"
    # Words alone wider than the page: each column holds its word (the table scrolls).
    words = pd.DataFrame({f"c{i}": ["x" * 40] for i in range(5)})
    assert column_widths(words) == [f"{int(40 * _CHAR_PX + _CELL_PX)}px"] * 5
    korean = pd.DataFrame({"k": ["서울특별시"]})  # five characters as wide as two each
    assert column_widths(korean) == [f"{int(10 * _CHAR_PX + _CELL_PX)}px"]


def test_the_pages_score_tables_hold_every_name_and_number_on_one_line():
    """Planted: the page's Compute answering ``compute``'s tables as they are (their columns
    then shares of the width, which broke "0.0918918918918919" and "evidence_precision")."""
    from taskeval.space import _CELL_PX, _CHAR_PX

    for name in ("fever_score", "tydiqa_goldp"):
        spec = app_module(name).SPEC
        values = ("files", "", "", *_example_uploads(spec), *default_controls(spec))
        _, _, scores, groups, *_ = _laid_out(spec, *values)
        for update, columns in ((scores, 3), (groups, 3)):
            if name == "fever_score" and update is groups:
                continue  # (no groups)
            frame = update["value"]
            widths = [int(w.removesuffix("px")) for w in update["column_widths"]]
            assert len(widths) == columns, name
            for width, column in zip(widths, frame.columns):
                words = [w for v in frame[column].astype(str) for w in v.split()]
                assert width >= max(len(w) for w in words) * _CHAR_PX + _CELL_PX - 1, column
