"""A Space as a public server: bounded work per request, no user blocking another, nothing left
behind, errors for people. Each Space is served on 127.0.0.1 in a process of its own, with small
limits, and driven as a script would (gradio_client) or as the page does (``bench_space.Page``:
uploads, the queue and its event stream; many requests in a few seconds)."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import socket
import subprocess
import sys
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio")
psutil = pytest.importorskip("psutil")
from gradio_client import Client, handle_file  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FEVER = REPO / "spaces" / "fever_score" / "examples"
TYDI = REPO / "spaces" / "tydiqa" / "examples"

# Limits small enough to reach in a test, large enough for the examples.
LIMITS = {
    "TASKEVAL_SPACE_MAX_INFLATED_MB": "16",
    "TASKEVAL_SPACE_MAX_UPLOAD_MB": "12",
    "TASKEVAL_SPACE_QUEUE_PER_CLIENT": "3",
    # Every upload, used or not, goes this long after its last use: enough for a loaded
    # machine between an upload and its Compute.
    "TASKEVAL_SPACE_UPLOAD_TTL": "3",
    "TASKEVAL_SPACE_MAX_MESSAGE_CHARS": "1000",
    "TASKEVAL_SPACE_WORKERS": "2",
    # Room for the examples with their intervals, far less than a hostile paste needs.
    "TASKEVAL_SPACE_MEMORY_MB": "160",
    # No worker is replaced for its number of tasks while the memory is watched.
    "TASKEVAL_SPACE_TASKS_PER_WORKER": "100000",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _client(url: str) -> Client:
    # A shared machine may keep an upload waiting longer than httpx's default 5 s.
    return Client(url, verbose=False, httpx_kwargs={"timeout": 120})


class Served:
    """``python spaces/<name>/app.py`` on a free port, its uploads in a folder of its own."""

    def __init__(self, name: str, uploads: Path) -> None:
        self.port, self.uploads = _free_port(), uploads
        env = {
            **os.environ,
            **LIMITS,
            "GRADIO_SERVER_PORT": str(self.port),
            "GRADIO_TEMP_DIR": str(uploads),
            "GRADIO_ANALYTICS_ENABLED": "False",
        }
        self.process = subprocess.Popen(
            [sys.executable, str(REPO / "spaces" / name / "app.py")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{self.port}/"

    def client(self) -> Client:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the Space exited"
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return _client(self.url)
            time.sleep(0.2)
        raise AssertionError("the Space did not start within 120 s")

    def memory(self) -> tuple[int, int]:
        """Resident bytes of the server process, and of the server with its workers."""
        server = psutil.Process(self.process.pid)
        workers = server.children(recursive=True)
        own = server.memory_info().rss
        return own, own + sum(w.memory_info().rss for w in workers)

    def workers(self) -> set[int]:
        """The process ids of the Space's worker processes."""
        children = psutil.Process(self.process.pid).children()
        return {c.pid for c in children if "space_worker" in " ".join(c.cmdline())}

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="module")
def spaces(tmp_path_factory):
    """The FEVER and TyDi QA Spaces, started together (each start takes seconds)."""
    served = {
        name: Served(name, tmp_path_factory.mktemp(f"uploads-{name}"))
        for name in ("fever_score", "tydiqa")
    }
    try:
        clients = {name: s.client() for name, s in served.items()}
        # The first answer waits for the workers to load the metric: not what a test measures.
        predictions, references = _fever_example()
        _fever(clients["fever_score"], predictions, references).result(timeout=120)
        _tydi(clients["tydiqa"], TYDI / "gold.jsonl.gz").result(timeout=120)
        yield {name: (served[name], clients[name]) for name in served}
    finally:
        for s in served.values():
            s.stop()


def _fever(client: Client, predictions, references, raw: bool = False, **kwargs):
    """Compute on pasted rows (``raw``: ``predictions`` is the text pasted as it is)."""
    text = predictions if raw else json.dumps(predictions)
    args = ("json", text, json.dumps(references), None, None, 5, False)
    return client.submit(*args, api_name="/compute", **kwargs)


def _tydi(client: Client, gold: Path):
    files = handle_file(str(TYDI / "predictions.jsonl")), handle_file(str(gold))
    return client.submit("files", "", "", *files, 2, 2, api_name="/compute")


def _fever_example() -> tuple[list, list]:
    read = lambda p: [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()]  # noqa: E731
    return read(FEVER / "predictions.jsonl"), read(FEVER / "actual.jsonl")


def _files(uploads: Path) -> list[str]:
    """The files under ``uploads``, read while the server removes uploads and their folders:
    ``os.walk`` passes over a folder removed as it is read (``Path.rglob`` raises
    ``FileNotFoundError`` there on Python 3.11, which made the upload test fail at random)."""
    return sorted(
        os.path.relpath(os.path.join(folder, name), uploads)
        for folder, _, names in os.walk(uploads)
        for name in names
    )


def test_an_upload_over_the_limit_is_refused_naming_the_limit_and_its_variable(spaces, tmp_path):
    """Planted: gradio's own refusal passed on ("File size exceeded maximum allowed size of
    12582912 bytes."), which names neither the limit as the page states it nor its variable."""
    import httpx

    server, _ = spaces["fever_score"]
    big = tmp_path / "predictions.jsonl"
    big.write_bytes(b"{}\n" * ((13 << 20) // 3))
    before = set(_files(server.uploads))
    with big.open("rb") as f:
        answer = httpx.post(server.url + "gradio_api/upload", files={"files": f}, timeout=120)
    assert answer.status_code == 413
    assert answer.text == (
        "an uploaded file is larger than the 12 MiB this Space takes "
        "(TASKEVAL_SPACE_MAX_UPLOAD_MB): score it with `taskeval score` on your machine"
    )
    assert set(_files(server.uploads)) <= before  # nothing of it kept


def test_a_busy_port_stops_the_space_saying_so(tmp_path):
    """gradio moves to the next free port when the one GRADIO_SERVER_PORT names is busy, without
    a word; the Space stops and says why. Planted: the port left to gradio (the Space then
    served elsewhere, and this test waited for an exit that never came)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {**os.environ, **LIMITS, "GRADIO_SERVER_PORT": str(port),
               "GRADIO_TEMP_DIR": str(tmp_path), "GRADIO_ANALYTICS_ENABLED": "False"}  # fmt: skip
        try:
            done = subprocess.run(
                [sys.executable, str(REPO / "spaces" / "fever_score" / "app.py")],
                env=env, capture_output=True, text=True, timeout=120,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise AssertionError("the Space did not stop") from None
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"taskeval Space: port {port} (GRADIO_SERVER_PORT) is in use on 127.0.0.1: stop what "
        "serves there, or choose another port"
    ), done.stderr


def test_one_client_flooding_the_queue_is_refused_past_its_share_and_others_are_served(spaces):
    """Planted: no bound per client (its requests fill gradio's queue, and everyone else gets
    "Queue is full"), a bound shared by all clients. The workers are paused, so that every
    request stays queued until the test lets them go."""
    import signal

    server, _ = spaces["fever_score"]
    predictions, references = _fever_example()
    flooding, other = _client(server.url), _client(server.url)
    paused = server.workers()
    for pid in paused:
        os.kill(pid, signal.SIGSTOP)
    try:
        flood = [_fever(flooding, predictions, references) for _ in range(5)]
        deadline = time.monotonic() + 60  # against a hang only: two are refused at once
        while sum(job.done() for job in flood) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        refused = [job.exception() for job in flood if job.done()]
        queued = [job for job in flood if not job.done()]
        served = _fever(other, predictions, references)
    finally:
        for pid in paused:
            os.kill(pid, signal.SIGCONT)
    assert len(queued) == 3, refused
    assert [e.response.json()["detail"] for e in refused] == [
        "this client has 3 requests queued or running, the most this Space takes from one "
        "client at once (TASKEVAL_SPACE_QUEUE_PER_CLIENT): wait for their answers"
    ] * 2
    for job in [served, *queued]:
        error, _, scores, *_ = job.result(timeout=120)
        assert not error["visible"] and ["strict_score", "0.26"] in scores["value"]["data"]


def test_a_long_value_is_answered_with_a_cut_message_while_another_user_is_served(spaces):
    _, client = spaces["fever_score"]
    predictions, references = _fever_example()
    long_page = "Page_" + "x_" * 100_000  # 200,005 characters, quoted by the error
    bad = [{**predictions[0], "predicted_evidence": [[long_page, "zero"]]}]
    attack = _fever(client, bad, references[:1])
    other = _fever(_client(spaces["fever_score"][0].url), predictions, references)
    error, *_ = attack.result(timeout=30)
    assert error["visible"] and "predicted_evidence" in error["value"]
    shown, cut = error["value"].rsplit("… (", 1)  # cut where the value is quoted, in the metric
    assert len(shown) < 1000 and cut.endswith(" more characters)")
    assert int(cut.split()[0].replace(",", "")) > 190_000
    error, _, scores, *_ = other.result(timeout=30)
    assert not error["visible"] and scores["visible"]


def test_a_computation_over_its_memory_is_stopped_others_are_served_and_the_pool_recovers(spaces):
    server, client = spaces["fever_score"]
    predictions, references = _fever_example()
    before = server.workers()
    assert len(before) == 2
    # 15 MB of text, over 300 MiB once parsed (an empty list is 56 bytes): past the 160 MiB
    # budget of a worker, well within what the Space lets one paste (64 Mi characters).
    hog = _fever(client, "[" + "[]," * 5_000_000 + "[]]", [], raw=True)
    time.sleep(0.2)
    other = _fever(_client(server.url), predictions, references)
    error, _, scores, *_ = hog.result(timeout=120)
    message = error["value"]
    assert error["visible"] and not scores["visible"], error
    assert "160 MiB" in message and "TASKEVAL_SPACE_MEMORY_MB" in message, message
    assert "\n" not in message and len(message) < 200 and "Traceback" not in message
    served, _, scores, *_ = other.result(timeout=120)
    assert not served["visible"], served
    assert ["strict_score", "0.26"] in scores["value"]["data"], scores
    # Its worker was replaced by a new one: two requests at once are both served.
    deadline = time.monotonic() + 120
    while len(server.workers() - before) < 1 or len(server.workers()) < 2:
        assert time.monotonic() < deadline, (before, server.workers())
        time.sleep(0.2)
    assert len(server.workers() & before) == 1
    both = [_fever(_client(server.url), predictions, references) for _ in range(2)]
    for request in both:
        served, _, scores, *_ = request.result(timeout=120)
        assert not served["visible"], served
        assert ["strict_score", "0.26"] in scores["value"]["data"], scores


def _bomb(path: Path, inflated: int) -> None:
    """A gzip of valid-looking gold lines, ``inflated`` bytes once decompressed, a thousandth of
    that on disk: one member, repeated (a file of many members is a valid gzip file)."""
    line = json.dumps({"example_id": 1, "language": "english", "document_plaintext": "a" * 20_000})
    block = ((line + "\n") * ((8 << 20) // len(line))).encode()
    member = gzip.compress(block, compresslevel=9, mtime=0)
    with open(path, "wb") as f:
        for _ in range(inflated // len(block) + 1):
            f.write(member)


def test_a_gzip_bomb_is_refused_in_seconds_and_others_are_served(spaces, tmp_path):
    server, client = spaces["tydiqa"]
    bomb = tmp_path / "gold.jsonl.gz"
    _bomb(bomb, 2 << 30)  # 2 GiB inflated
    assert bomb.stat().st_size < 8 << 20
    _, before = server.memory()
    peak, done = [before], threading.Event()

    def watch():
        while not done.is_set():
            peak.append(server.memory()[1])
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        started = time.monotonic()
        attack = _tydi(client, bomb)
        time.sleep(0.3)
        other = _tydi(_client(server.url), TYDI / "gold.jsonl.gz")
        error, *_ = attack.result(timeout=60)
        took = time.monotonic() - started
        served, _, scores, *_ = other.result(timeout=60)
    finally:
        done.set()
        watcher.join()
    assert error["visible"] and "more than 16 MiB once decompressed" in error["value"], error
    assert "TASKEVAL_SPACE_MAX_INFLATED_MB" in error["value"]
    assert took < 10, f"{took:.1f} s"
    assert not served["visible"] and scores["visible"], served
    assert max(peak) - before < 200 << 20, f"{(max(peak) - before) >> 20} MiB more"


# The flat test. A server's memory is a saw (garbage piles up between the collector's full
# passes, tens of MB in a server this size), so the test compares the saw's floors: the least
# memory seen while the requests 50-125 ran, then while the requests 125-200 ran (sampled
# every 50 ms). Planted, a leak of 200 kB a request (a request's tables kept) raised the later
# floor by 30 MB; without one it rose by 6 MB. The margins: 16 MB for the server, 32 MB with
# its workers.
ROUND, ROUNDS, WARM_UP = 25, 8, 2
SERVER_MARGIN, ALL_MARGIN = 16 << 20, 32 << 20


def test_the_upload_listing_passes_over_folders_removed_as_it_reads(tmp_path):
    """The server removes an upload and its folder while the test lists the uploads."""
    stop = threading.Event()

    def churn() -> None:
        i = 0
        while not stop.is_set():
            folder = tmp_path / f"upload{i % 20}"
            with contextlib.suppress(OSError):
                folder.mkdir()
                (folder / "p.jsonl").write_text("{}\n")
                (folder / "p.jsonl").unlink()
                folder.rmdir()
            i += 1

    thread = threading.Thread(target=churn)
    thread.start()
    try:
        for _ in range(2000):
            assert all(name.endswith("p.jsonl") for name in _files(tmp_path))
    finally:
        stop.set()
        thread.join()


def test_uploads_and_memory_stay_flat_over_200_requests(spaces, tmp_path):
    from bench.bench_space import Page

    server, _ = spaces["fever_score"]
    predictions, references = (
        (FEVER / name).read_text(encoding="utf-8").splitlines(keepends=True)
        for name in ("predictions.jsonl", "actual.jsonl")
    )
    start = _files(server.uploads)

    def ask(i: int) -> None:
        # A different upload each time (as many users would send): n claims, n in 51..100,
        # turned by k lines (claims pair by line), k in 0..3.
        n, k = 51 + i % 50, i // 50
        folder = tmp_path / str(i)
        folder.mkdir()
        for name, lines in (("p.jsonl", predictions[:n]), ("r.jsonl", references[:n])):
            (folder / name).write_text("".join(lines[k:] + lines[:k]), encoding="utf-8")
        page = getattr(local, "page", None) or Page(server.url)
        local.page = page  # each thread a browser of its own
        (p,), (r,) = page.upload([folder / "p.jsonl"]), page.upload([folder / "r.jsonl"])
        data = ["files", "", "", p, r, 5, False]
        error, _, scores, *_ = page.call("compute", data)
        assert not error["visible"], error
        if i % 2:  # as the page does: the intervals step, which releases the uploads at once
            page.call("intervals", [*data, False, scores["value"]])

    local = threading.local()
    floors: list[list[int]] = [[1 << 62] * 2 for _ in range(ROUNDS)]  # per round: own, all
    done, round_ = threading.Event(), [0]

    def watch() -> None:
        while not done.is_set():
            time.sleep(0.05)
            try:
                figures = server.memory()
            except psutil.Error:  # a worker ended as it was read
                continue
            floor = floors[round_[0]]
            floor[:] = [min(f, m) for f, m in zip(floor, figures)]

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(4) as pool:
            for part in range(ROUNDS):
                round_[0] = part
                list(pool.map(ask, range(ROUND * part, ROUND * part + ROUND)))
    finally:
        done.set()
        watcher.join()
    assert ROUND * ROUNDS == 200
    deadline = time.monotonic() + 30  # gradio's empty upload files go after 10 s
    while _files(server.uploads) != start and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _files(server.uploads) == start
    # The floors while the requests 50-125 ran, and while the requests 125-200 ran.
    early = [min(f[i] for f in floors[WARM_UP : ROUNDS // 2 + 1]) for i in (0, 1)]
    late = [min(f[i] for f in floors[ROUNDS // 2 + 1 :]) for i in (0, 1)]
    figures = ", ".join(f"{own >> 20}/{whole >> 20}" for own, whole in floors)
    assert late[0] - early[0] < SERVER_MARGIN, f"server MiB/with workers, by round: {figures}"
    assert late[1] - early[1] < ALL_MARGIN, f"server MiB/with workers, by round: {figures}"


def test_a_json_array_file_is_named_in_one_short_line(spaces, tmp_path):
    _, client = spaces["fever_score"]
    predictions, _ = _fever_example()
    array = tmp_path / "predictions.jsonl"
    array.write_text(json.dumps(predictions * 20, indent=2), encoding="utf-8")
    assert array.stat().st_size > 30_000
    error, *_ = client.predict(
        "files", "", "", handle_file(str(array)), handle_file(str(FEVER / "actual.jsonl")),
        5, False, api_name="/compute",
    )  # fmt: skip
    assert error["visible"] and "JSON array" in error["value"], error
    assert "predictions.jsonl" in error["value"] and str(tmp_path) not in error["value"]
    assert len(error["value"]) <= 1100 and "\n" not in error["value"]


def test_messages_are_shown_verbatim_and_cut(spaces):
    _, client = spaces["fever_score"]
    predictions, references = _fever_example()
    page = "Page_with_under_scores_*and*_[brackets](x)_" + "y" * 3000
    bad = [{**predictions[0], "predicted_evidence": [[page, "zero"]]}]
    # The page shows the message as plain text, never rendered as Markdown.
    info = client.view_api(return_format="dict", print_info=False)
    (endpoint,) = [v for k, v in info["named_endpoints"].items() if k == "/compute"]
    assert endpoint["returns"][0]["component"] == "Textbox"
    error, *_ = _fever(client, bad, references[:1]).result(timeout=30)
    message = error["value"]
    assert page[:150] in message  # as written: underscores, stars and brackets kept
    assert message.endswith(" more characters)") and len(message) < 1100


def test_the_page_states_its_limits(spaces):
    server, _ = spaces["fever_score"]
    import urllib.request

    config = json.loads(urllib.request.urlopen(server.url + "config", timeout=30).read())
    texts = [c.get("props", {}).get("value") for c in config["components"]]
    (note,) = [t for t in texts if isinstance(t, str) and t.startswith("Limits of this Space")]
    for variable in ("TASKEVAL_SPACE_MAX_UPLOAD_MB", "TASKEVAL_SPACE_MAX_INFLATED_MB",
                     "TASKEVAL_SPACE_MAX_ROWS", "TASKEVAL_MAX_LINE_BYTES",
                     "TASKEVAL_SPACE_TIMEOUT", "TASKEVAL_SPACE_MEMORY_MB"):  # fmt: skip
        assert variable in note
    assert "16 MiB inflated" in note


def test_cli_errors_are_cut_the_same_way(tmp_path, capsys):
    from taskeval.cli import main

    predictions, references = _fever_example()
    bad = tmp_path / "p.jsonl"
    row = {**predictions[0], "predicted_evidence": [["Page_" + "x" * 50_000, "zero"]]}
    bad.write_text(json.dumps(row) + "\n", encoding="utf-8")
    refs = tmp_path / "r.jsonl"
    refs.write_text(json.dumps(references[0]) + "\n", encoding="utf-8")
    code = main(["score", "fever_score", "--predictions", str(bad), "--references", str(refs)])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert "more characters)" in err and len(err) < 2200
    assert "Page_xxx" in err


def test_user_message_is_linear():
    from taskeval.space_worker import user_message

    for size in (10_000, 400_000):
        error = ValueError("x/" * size + "taskeval-predictions-abc/p.jsonl: bad")
        started = time.monotonic()
        message = user_message(error, ["/no/such/upload"], {"/tmp/taskeval-predictions-abc": "x"})
        assert time.monotonic() - started < 0.5
        assert message.endswith(" more characters)")


def test_inflated_size_is_counted_without_inflating_it_whole(tmp_path):
    from taskeval.space_worker import Limits, check_file

    bomb = tmp_path / "g.jsonl.gz"
    bomb.write_bytes(zlib.compress(b"", 9))  # not gzip: left to the reader
    limits = Limits()
    limits.inflated_bytes = 1 << 20
    check_file(str(bomb), "g.jsonl.gz", True, limits)
    _bomb(bomb, 64 << 20)
    with pytest.raises(ValueError, match="more than 1 MiB once decompressed"):
        check_file(str(bomb), "g.jsonl.gz", True, limits)
    limits.inflated_bytes, limits.rows = 1 << 30, 100
    with pytest.raises(ValueError, match="more than 100 lines"):
        check_file(str(bomb), "g.jsonl.gz", True, limits)


def test_a_computation_over_its_time_is_stopped_and_its_worker_replaced():
    from bench.bench_fever import synthetic
    from taskeval.space_pool import Pool
    from taskeval.space_worker import Limits

    limits = Limits()
    limits.workers, limits.timeout = 1, 120.0
    pool = Pool("fever_score", limits)
    try:
        predictions, references = synthetic(40_000)
        task = {
            "metric": "fever_score", "config": None, "options": {}, "source": "json",
            "names": {}, "folders": {}, "with_interval": False,
            "predictions": json.dumps(predictions[:10]), "references": json.dumps(references[:10]),
        }  # fmt: skip
        assert "error" not in pool.run(task)  # the worker has started
        (first,) = pool._all
        limits.timeout = 0.5
        slow = {
            **task,
            "with_interval": True,  # 40,000 claims read, scored, resampled: seconds
            "predictions": json.dumps(predictions),
            "references": json.dumps(references),
        }
        started = time.monotonic()
        reply = pool.run(slow)
        assert time.monotonic() - started < 3
        assert "took longer than 0.5 s" in reply["error"], reply
        assert "TASKEVAL_SPACE_TIMEOUT" in reply["error"]
        assert first.process.wait(timeout=5) is not None  # ended, not left running
        limits.timeout = 120.0
        reply = pool.run(task)  # a new worker answers
        assert "error" not in reply and reply["result"]["strict_score"] >= 0
        assert first not in pool._all
    finally:
        pool.close()


def test_the_server_keeps_the_pages_of_a_bounded_number_of_sessions(monkeypatch):
    """gradio keeps, per session, a copy of every component a request updated (the scores, a
    breakdown of thousands of rows), for the last 10,000 sessions unless told otherwise: the
    server grew with every new client. Planted: gradio's default kept."""
    from test_spaces import app_module

    from taskeval import space

    monkeypatch.setattr(space._LIMITS, "workers", 0)  # computed in this process
    monkeypatch.setattr(space._LIMITS, "sessions", 2)
    spec = app_module("fever_score").SPEC
    port = _free_port()
    monkeypatch.setenv("GRADIO_SERVER_PORT", str(port))
    demo = space.launch(spec, prevent_thread_lock=True, quiet=True)
    try:
        predictions, references = _fever_example()
        for _ in range(4):  # four clients, one after the other
            client = _client(f"http://127.0.0.1:{port}/")
            error, *_ = _fever(client, predictions[:5], references[:5]).result(timeout=120)
            assert not error["visible"], error
        assert len(demo.state_holder.session_data) == 2
    finally:
        demo.close()
