"""The Spaces as servers: how fast a served Space answers, against the command line.

``python -m bench.bench_space`` serves the FEVER Space (``python spaces/fever_score/app.py``)
on 127.0.0.1 and drives it with gradio_client as the page does:

* the example, as the page sends it (the example files the page shows, Compute without the
  interval), one request after another: the median time of a request and requests per second;
* a full-size file (9,999 claims, FEVER's dev and test size; synthetic, as in ``bench_fever``):
  Compute and then the intervals step, the page's two requests, against
  ``taskeval score fever_score --ci`` on the same files (read, score, 1,000 resamples).

Writes ``bench/space.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_fever import synthetic
from bench.common import REPO, machine, table

SPACE = REPO / "spaces" / "fever_score"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(uploads: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_TEMP_DIR": str(uploads)}
    proc = subprocess.Popen(
        [sys.executable, str(SPACE / "app.py")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"http://127.0.0.1:{port}/"
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the Space did not start")


def page_files(url: str) -> tuple[dict, dict]:
    """The example files as the page sends them: the server's copies the page shows."""
    import urllib.request

    config = json.loads(urllib.request.urlopen(url + "config", timeout=60).read())
    values = {
        c["props"].get("elem_id"): c["props"].get("value")
        for c in config["components"]
        if c.get("type") == "file"
    }
    pick = lambda v: {"path": v["path"], "meta": {"_type": "gradio.FileData"}}  # noqa: E731
    return pick(values["predictions-files"]), pick(values["references-files"])


def _cpu(process) -> float:
    """CPU seconds (user + system) of the server and its worker processes so far."""
    total = 0.0
    for p in [process, *process.children(recursive=True)]:
        times = p.cpu_times()
        total += times.user + times.system
    return total


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=40, help="example requests (default 40)")
    parser.add_argument("--runs", type=int, default=3, help="runs of the full file (default 3)")
    parser.add_argument("--claims", type=int, default=9999)
    args = parser.parse_args()
    import psutil
    from gradio_client import Client, handle_file

    load_start = os.getloadavg()
    scratch = Path(tempfile.mkdtemp(prefix="bench-space-"))
    proc, url = serve(scratch / "uploads")
    try:
        client = Client(url, verbose=False)
        preds, refs = page_files(url)
        compute = lambda p, r: client.predict("files", "", "", p, r, 5, False, api_name="/compute")  # noqa: E731
        for _ in range(5):  # the workers warm up
            error, *_ = compute(preds, refs)
            assert not error["visible"], error
        tree = psutil.Process(proc.pid)
        cpu_before = _cpu(tree)
        example = [timed(lambda: compute(preds, refs)) for _ in range(args.requests)]
        cpu = (_cpu(tree) - cpu_before) / args.requests
        # The full-size file: the page's two requests, against the command line's --ci.
        predictions, references = synthetic(args.claims)
        files = {}
        for name, rows in (("predictions.jsonl", predictions), ("actual.jsonl", references)):
            files[name] = scratch / name
            files[name].write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        command = [
            sys.executable, "-m", "taskeval", "score", "fever_score", "--ci",
            "--predictions", str(files["predictions.jsonl"]),
            "--references", str(files["actual.jsonl"]),
        ]  # fmt: skip
        space, cli = [], []
        for _ in range(args.runs):
            cli.append(timed(lambda: subprocess.run(command, check=True, capture_output=True)))

            def page() -> None:
                p, r = (
                    handle_file(str(files["predictions.jsonl"])),
                    handle_file(str(files["actual.jsonl"])),
                )
                error, _, scores, *_ = client.predict(
                    "files", "", "", p, r, 5, False, api_name="/compute"
                )
                assert not error["visible"], error
                with_ci = client.predict(
                    "files", "", "", p, r, 5, False, True, scores["value"], api_name="/intervals"
                )
                assert "95% interval" in with_ci["headers"], with_ci

            space.append(timed(page))
    finally:
        proc.kill()
        proc.wait()
    load_end = os.getloadavg()
    median = statistics.median(example)
    rows = [
        [
            "100 claims (the Space's example, as the page sends it)",
            f"{args.requests} Compute requests, one after another",
            f"{median * 1000:.0f} ms per request ({1 / median:.1f} requests/s); "
            f"runs: min {min(example) * 1000:.0f}, max {max(example) * 1000:.0f} ms; "
            f"CPU of the server and its workers: {cpu * 1000:.0f} ms per request "
            f"({1 / cpu:.1f} requests per CPU second)",
            "≥ 10 requests/s",
            "met" if 1 / median >= 10 else "missed (loaded machine)" if 1 / cpu >= 10 else "missed",
        ],
        [
            f"{args.claims:,} claims (synthetic, FEVER dev/test size)",
            "Compute + intervals (the page's two requests, uploads included) vs "
            "`taskeval score fever_score --ci`",
            f"Space {statistics.median(space):.2f} s (runs {', '.join(f'{t:.2f}' for t in space)})"
            f"; CLI {statistics.median(cli):.2f} s (runs {', '.join(f'{t:.2f}' for t in cli)}); "
            f"ratio {statistics.median(space) / statistics.median(cli):.2f}",
            "≤ 2",
            "met" if statistics.median(space) <= 2 * statistics.median(cli) else "missed",
        ],
    ]
    text = (
        "# The Spaces as servers\n\n"
        f"Machine: {machine()}; load average (1, 5, 15 min) "
        f"{', '.join(f'{x:.1f}' for x in load_start)} at the start and "
        f"{', '.join(f'{x:.1f}' for x in load_end)} at the end: the machine was shared with "
        "other jobs, so the figures are those of a loaded machine.\n\n"
        "Command: `python -m bench.bench_space` (serves `spaces/fever_score/app.py` on "
        "127.0.0.1 with its default limits: 2 worker processes; drives it with gradio_client).\n\n"
        + table(["size", "what", "figures (medians)", "target", "verdict"], rows)
        + "\n"
    )
    (Path(__file__).with_name("space.md")).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
