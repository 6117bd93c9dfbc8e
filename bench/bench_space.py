"""The Spaces as servers: how fast a served Space answers, against the command line.

``python -m bench.bench_space`` serves the Spaces (``python spaces/<name>/app.py``) on
127.0.0.1 and drives them over HTTP as the page does (upload, join the queue, read the event
stream; ``Page``):

* the FEVER Space's example, as the page sends it (the example files the page shows, the
  controls' defaults, Compute without the interval), one request after another: the median time
  of a request, requests per second, and the CPU time of the server and its workers per request;
  the same requests through gradio_client for comparison (it polls its event queue every 50 ms,
  which sets its pace);
* a dev-size file of each metric that has one in the parity corpus (FEVER's 9,999-claim
  fixture, SciFact's 300 dev claims, eHealth-KD 2019's main scenario): Compute and then the
  intervals step, the page's two requests with their uploads, against ``taskeval score METRIC
  --ci`` on the same files (read, score, 1,000 resamples).

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
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import PARITY, REPO, machine, table


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(uploads: Path, name: str = "fever_score") -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {
        **os.environ,
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_TEMP_DIR": str(uploads),
        "GRADIO_ANALYTICS_ENABLED": "False",
    }
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "spaces" / name / "app.py")],
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


class Page:
    """A browser's requests to a served Space: the page's config, uploads, and each event as
    the page sends it (``/queue/join``, then the session's event stream up to its result)."""

    def __init__(self, url: str) -> None:
        import httpx

        self.url, self.http = url, httpx.Client(timeout=600)
        self.config = self.http.get(url + "config").json()
        self.components = {c["id"]: c for c in self.config["components"]}
        self.session = uuid.uuid4().hex

    def endpoint(self, api_name: str) -> tuple[int, dict]:
        for index, dependency in enumerate(self.config["dependencies"]):
            if dependency.get("api_name") == api_name:
                return dependency.get("id", index), dependency
        raise KeyError(api_name)

    def defaults(self, api_name: str) -> dict[str, Any]:
        """The inputs of ``api_name`` as the page shows them first, by elem_id or label."""
        _, dependency = self.endpoint(api_name)
        values = {}
        for id_ in dependency["inputs"]:
            props = self.components[id_]["props"]
            values[props.get("elem_id") or props.get("label")] = props.get("value")
        return values

    def file(self, value: dict) -> dict:
        """A file the page shows (an example), as the page sends it back."""
        return {"path": value["path"], "meta": {"_type": "gradio.FileData"}}

    def upload(self, paths: list[Path]) -> list[dict]:
        files = [("files", (p.name, p.read_bytes())) for p in paths]
        stored = self.http.post(self.url + "gradio_api/upload", files=files).json()
        return [
            {"path": s, "orig_name": p.name, "meta": {"_type": "gradio.FileData"}}
            for s, p in zip(stored, paths)
        ]

    def call(self, api_name: str, data: list) -> list:
        fn_index, dependency = self.endpoint(api_name)
        trigger = dependency["targets"][0][0] if dependency["targets"] else None
        joined = self.http.post(
            self.url + "gradio_api/queue/join",
            json={
                "data": data,
                "event_data": None,
                "fn_index": fn_index,
                "trigger_id": trigger,
                "session_hash": self.session,
            },
        )
        event = joined.json()["event_id"]
        stream = self.url + "gradio_api/queue/data"
        with self.http.stream("GET", stream, params={"session_hash": self.session}) as lines:
            for line in lines.iter_lines():
                if not line.startswith("data: "):
                    continue
                message = json.loads(line[6:])
                if message.get("msg") == "process_completed" and message["event_id"] == event:
                    if not message.get("success"):
                        raise RuntimeError(message)
                    return message["output"]["data"]
        raise RuntimeError(f"the event stream of {api_name} ended without its result")


def _cpu(process) -> float:
    """CPU seconds (user + system) of the server and its worker processes so far."""
    total = 0.0
    for p in [process, *process.children(recursive=True)]:
        times = p.cpu_times()
        total += times.user + times.system
    return total


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _inputs(page: Page, predictions: Any, references: Any) -> list:
    """Compute's inputs: the page's defaults (controls included), the "Official files" tab."""
    values = page.defaults("compute")
    values.update({"source": "files", "predictions-files": predictions})
    values["references-files"] = references
    return list(values.values())


def example(requests: int) -> tuple[list[float], float, list[float]]:
    """The FEVER Space's example, ``requests`` times: (times as the page, CPU per request,
    times through gradio_client)."""
    import psutil
    from gradio_client import Client

    with tempfile.TemporaryDirectory(prefix="bench-space-") as scratch:
        proc, url = serve(Path(scratch) / "uploads")
        try:
            page = Page(url)
            shown = page.defaults("compute")
            data = _inputs(
                page, page.file(shown["predictions-files"]), page.file(shown["references-files"])
            )
            for _ in range(5):  # the workers warm up
                error, *_ = page.call("compute", data)
                assert not error["visible"], error
            tree = psutil.Process(proc.pid)
            before = _cpu(tree)
            times = [timed(lambda: page.call("compute", data)) for _ in range(requests)]
            cpu = (_cpu(tree) - before) / requests
            client = Client(url, verbose=False)
            client.predict(*data, api_name="/compute")
            by_client = [
                timed(lambda: client.predict(*data, api_name="/compute"))
                for _ in range(max(requests // 4, 5))
            ]
        finally:
            proc.kill()
            proc.wait()
    return times, cpu, by_client


def dev_files(folder: Path) -> list[tuple[str, str, list[Path], list[Path], list[str]]]:
    """(metric, what, prediction files, reference files, CLI options) of each metric whose
    parity corpus holds a dev-size file."""
    jobs = []
    fever = PARITY / "fever" / "cases" / "fixture_9999_blind"
    if fever.is_dir():
        jobs.append(("fever_score", "FEVER fixture, 9,999 claims (real)",
                     [fever / "predictions.jsonl"], [fever / "actual.jsonl"], []))  # fmt: skip
    scifact = PARITY / "scifact" / "cases"
    if scifact.is_dir():
        for name in ("scifact_abstract", "scifact_sentence"):
            jobs.append((name, "SciFact dev, 300 claims (MultiVerS run)",
                         [scifact / "dev_multivers_scifact_ckpt" / "predictions.jsonl"],
                         [scifact / "dev_oracle" / "gold.jsonl"], []))  # fmt: skip
    real = PARITY / "ehealthkd" / "real"
    if real.is_dir():
        gold, run = real / "gold" / "scenario1-main", real / "cases" / "talp__576639"
        predictions = sorted((run / "submission" / "scenario1-main").iterdir())
        jobs.append(("ehealthkd", "eHealth-KD 2019 test, main scenario (real run)",
                     predictions, sorted(gold.iterdir()), ["--scenario", "1"]))  # fmt: skip
    return jobs


def _folder(files: list[Path], folder: Path) -> Path:
    """The files as one folder of links (a folder metric's CLI input)."""
    folder.mkdir(parents=True)
    for f in files:
        (folder / f.name).symlink_to(f)
    return folder


def dev_file(
    name: str, predictions: list[Path], references: list[Path], options: list[str], runs: int
) -> tuple[list[float], list[float]]:
    """The page's two requests on a dev-size file (uploads included) and the CLI's --ci."""
    with tempfile.TemporaryDirectory(prefix="bench-space-") as scratch:
        root = Path(scratch)
        if len(predictions) > 1 or len(references) > 1:  # folder inputs
            cli_preds = _folder(predictions, root / "predictions")
            cli_refs = _folder(references, root / "references")
        else:
            cli_preds, cli_refs = predictions[0], references[0]
        command = [
            sys.executable, "-m", "taskeval", "score", name, "--ci",
            "--predictions", str(cli_preds), "--references", str(cli_refs), *options,
        ]  # fmt: skip
        proc, url = serve(root / "uploads", name)
        try:
            page = Page(url)
            folders = isinstance(page.defaults("compute")["predictions-files"], list)
            warm = page.defaults("compute")  # the workers load the metric: not measured
            page.call("compute", _inputs(page, warm["predictions-files"],
                                         warm["references-files"]))  # fmt: skip
            space, cli = [], []

            def both() -> None:
                p, r = page.upload(predictions), page.upload(references)
                data = _inputs(page, p if folders else p[0], r if folders else r[0])
                error, _, scores, *_ = page.call("compute", data)
                assert not error["visible"], error
                with_ci = page.call("intervals", [*data, True, scores["value"]])
                assert "95% interval" in with_ci[0]["headers"], with_ci

            for _ in range(runs):
                cli.append(timed(lambda: subprocess.run(command, check=True, capture_output=True)))
                space.append(timed(both))
        finally:
            proc.kill()
            proc.wait()
    return space, cli


def _runs(times: list[float]) -> str:
    return ", ".join(f"{t:.2f}" for t in times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100, help="example requests (100)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each dev-size file (3)")
    parser.add_argument("--only", nargs="*", help="dev-size files of these metrics only")
    args = parser.parse_args()
    load_start = os.getloadavg()
    times, cpu, by_client = example(args.requests)
    median, client_median = statistics.median(times), statistics.median(by_client)
    rows = [
        [
            "FEVER, the example (100 claims, as the page sends it)",
            f"{args.requests} Compute requests, one after another, as the page sends them",
            f"{median * 1000:.1f} ms per request ({1 / median:.1f} requests/s); "
            f"runs: min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f} ms; CPU of the "
            f"server and its workers: {cpu * 1000:.1f} ms per request "
            f"({1 / cpu:.1f} requests per CPU second)",
            "≥ 10 requests/s",
            "met" if 1 / median >= 10 else "missed",
        ],
        [
            "FEVER, the example",
            f"{len(by_client)} Compute requests through gradio_client (polls every 50 ms)",
            f"{client_median * 1000:.0f} ms per request ({1 / client_median:.1f} requests/s)",
            "",
            "(the client's pace)",
        ],
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, what, predictions, references, options in dev_files(Path(tmp)):
            if args.only and name not in args.only:
                continue
            space, cli = dev_file(name, predictions, references, options, args.runs)
            ratio = statistics.median(space) / statistics.median(cli)
            rows.append([
                f"{name}: {what}",
                "Compute + intervals (the page's two requests, uploads included) vs "
                f"`taskeval score {name} --ci`",
                f"Space {statistics.median(space):.2f} s (runs {_runs(space)}); "
                f"CLI {statistics.median(cli):.2f} s (runs {_runs(cli)}); ratio {ratio:.2f}",
                "≤ 2",
                "met" if ratio <= 2 else "missed",
            ])  # fmt: skip
    load_end = os.getloadavg()
    text = (
        "# The Spaces as servers\n\n"
        f"Machine: {machine()}; load average (1, 5, 15 min) "
        f"{', '.join(f'{x:.1f}' for x in load_start)} at the start and "
        f"{', '.join(f'{x:.1f}' for x in load_end)} at the end (the machine is shared with "
        "other jobs: a load above 2 means they took part of its two CPUs).\n\n"
        "Command: `python -m bench.bench_space` (serves each Space's `app.py` on 127.0.0.1 with "
        "its default limits, 2 worker processes, and drives it over HTTP as the page does: "
        "uploads, `/queue/join`, the event stream).\n\n"
        + table(["size", "what", "figures (medians)", "target", "verdict"], rows)
        + "\n"
    )
    (Path(__file__).with_name("space.md")).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
