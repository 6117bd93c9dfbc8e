"""What the task configs of this folder call (``!function hooks.<name>``). The harness loads
this file by its path, so it reaches the metric through the installed taskeval."""

from functools import partial

from taskeval._metrics.tydiqa_goldp.lm_eval_task import docs_in, language_percent, question_result

__all__ = ["language_percent", "question_result"]

# Each language task's process_docs: its questions of the split.
english = partial(docs_in, language="english")
arabic = partial(docs_in, language="arabic")
bengali = partial(docs_in, language="bengali")
finnish = partial(docs_in, language="finnish")
indonesian = partial(docs_in, language="indonesian")
swahili = partial(docs_in, language="swahili")
korean = partial(docs_in, language="korean")
russian = partial(docs_in, language="russian")
telugu = partial(docs_in, language="telugu")
