"""A pytest plugin for the mutation runs of the Space layer (``-p tests.space_in_process`` in
scripts/mutation.toml): every Space computation runs in the test process instead of a worker
process (``Limits.workers`` 0, the Space's debugging mode).

The page computes the same result either way (the request's task goes to ``space_worker.run``
here, or to the same function in a worker); in the test process no worker starts per run (some
twenty seconds of a loaded machine), and the coverage run that picks each mutant's tests sees
the lines the computation runs. ``taskeval/space_pool.py``, the worker processes themselves, is
mutated without it.
"""

from __future__ import annotations


def pytest_configure(config) -> None:
    import taskeval.space

    limits = getattr(taskeval.space, "_LIMITS", None)
    if limits is not None:  # else only slower: the workers compute
        limits.workers = 0
