"""What the command line does when its reader goes away (stdout closed early, as by ``| head``)."""

from __future__ import annotations

import os
import sys


def silence_stdout() -> None:
    """After a ``BrokenPipeError``: nothing more to say, and nothing for Python to complain about
    when it flushes stdout at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
