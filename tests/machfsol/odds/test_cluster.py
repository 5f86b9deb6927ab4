"""machfsol odds on a Dask cluster: the same counts as one machine, a dead worker's chunk
run again and counted once, and one-line errors for a bad or unreachable address."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import cloudpickle
import pytest
from distributed import LocalCluster

from machfsol.cli import main
from machfsol.odds import cluster as cluster_module
from machfsol.odds.cluster import (
    LOCAL_HTTP_ADDRESS,
    LOOPBACK,
    ClusterError,
    check_address,
    run_on_cluster,
)
from machfsol.odds.study import Job, Tally, compute, jobs_for, run_job

# The workers are other processes: send this module's task functions by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

CONFIGS = [(1, 24), (2, 28), (2, 36)]


@pytest.fixture(scope="module")
def two_workers() -> Iterator[str]:
    """A local Dask cluster of 2 worker processes (1 thread each), for the module."""
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host=LOOPBACK,
        dashboard_address=LOCAL_HTTP_ADDRESS,
    ) as local:
        yield local.scheduler_address


def test_cluster_counts_equal_one_process(two_workers: str) -> None:
    alone = compute(CONFIGS, 600, first_seed=7, solver_deals=120, jobs=1)
    spread = compute(CONFIGS, 600, first_seed=7, solver_deals=120, cluster=two_workers)
    assert [row.tally for row in spread] == [row.tally for row in alone]
    assert all(row.tally.deals == 600 and row.tally.solver_deals == 120 for row in spread)


def test_progress_counts_every_deal_once(two_workers: str) -> None:
    seen: list[int] = []
    compute(CONFIGS, 520, solver_deals=10, cluster=two_workers, progress=seen.append)
    assert sum(seen) == 520 * len(CONFIGS)


def die_the_first_time(marker: str, job: Job) -> Tally:
    """Kill this worker process on the first chunk it is given (once per test), as a
    crashed machine would; run the chunk normally when it is tried again."""
    runs = Path(marker)
    if not runs.exists():
        runs.write_text("died\n")
        os._exit(1)
    with runs.open("a") as log:
        log.write(f"{job.game} {job.deck} {job.first}\n")
    return run_job(job)


def test_a_dead_worker_is_retried_and_its_chunk_counted_once(
    two_workers: str, tmp_path: Path
) -> None:
    marker = tmp_path / "runs.txt"
    work = jobs_for(2, 28, 1000, 1, 200, None)
    task = functools.partial(die_the_first_time, str(marker))
    results = list(run_on_cluster(work, task, two_workers))
    assert marker.read_text().startswith("died\n")  # a worker did die
    assert sorted(index for index, _tally in results) == list(range(len(work)))
    total = sum((tally for _index, tally in results), Tally())
    assert total == sum((run_job(job) for job in work), Tally())
    assert total.deals == 1000


def test_cli_on_a_local_cluster_equals_the_process_pool(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["odds", "--variant", "2", "--deck", "32", "--deals", "300", "--json"]
    assert main([*args, "--cluster", "local", "--jobs", "2"]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == on_cluster


def test_a_local_cluster_beside_another_says_nothing(recwarn: pytest.WarningsRecorder) -> None:
    """Two studies at once (or a test run beside a study): the second local cluster's
    scheduler finds the usual HTTP port, 8787, taken, and must not warn about it."""
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(OSError):  # already taken by someone else: as good
            taken.bind((LOOPBACK, 8787))
            taken.listen()
        results = list(run_on_cluster([3, 4], str, "local", local_workers=1))
    assert sorted(results) == [(0, "3"), (1, "4")]
    assert [str(warning.message) for warning in recwarn.list] == []


@pytest.mark.parametrize(
    ("address", "normal"),
    [
        ("local", "local"),
        ("10.1.2.3:8786", "tcp://10.1.2.3:8786"),
        ("tcp://scheduler.lan:8786", "tcp://scheduler.lan:8786"),
        ("tls://10.1.2.3:8786", "tls://10.1.2.3:8786"),
        ("tls://[::1]:8786", "tls://[::1]:8786"),
    ],
)
def test_addresses(address: str, normal: str) -> None:
    assert check_address(address) == normal


@pytest.mark.parametrize(
    "address", ["nowhere", "tcp://host:port", "http://host:80", ":8786", "ws://host:8786"]
)
def test_bad_address_is_a_one_line_usage_error(
    address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", "--deck", "20", "--deals", "5", "--cluster", address]) == 2
    err = capsys.readouterr().err
    assert "--cluster" in err and err.count("\n") == 1


def test_unreachable_scheduler_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ClusterError, match="cannot reach the scheduler"):
        list(run_on_cluster([1], str, "tcp://127.0.0.1:9"))
    status = main(["odds", "--deck", "20", "--deals", "5", "--cluster", "tcp://127.0.0.1:9"])
    assert status == 1
    err = capsys.readouterr().err
    assert "cannot reach the scheduler" in err and err.count("\n") == 1


def garbage(peer: socket.socket, _stop: threading.Event) -> None:
    peer.sendall(bytes(range(256)) * 4)


def a_banner(peer: socket.socket, _stop: threading.Event) -> None:
    peer.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")


def http(peer: socket.socket, _stop: threading.Event) -> None:
    peer.recv(4096)
    peer.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def silence(_peer: socket.socket, stop: threading.Event) -> None:
    stop.wait()  # the connection stays open, and nothing is ever said


@contextlib.contextmanager
def stranger(answer: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """A loopback TCP server that gives each connection ``answer`` (not Dask's protocol);
    its ``tcp://`` address."""
    stop = threading.Event()
    with socket.socket() as server:
        server.bind((LOOPBACK, 0))
        server.listen()
        server.settimeout(0.1)

        def serve() -> None:
            while not stop.is_set():
                try:
                    peer, _ = server.accept()
                except TimeoutError:
                    continue
                with peer, contextlib.suppress(OSError):
                    answer(peer, stop)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        try:
            yield f"tcp://{LOOPBACK}:{server.getsockname()[1]}"
        finally:
            stop.set()
            thread.join()


@pytest.mark.parametrize("answer", [garbage, a_banner, http, silence], ids=lambda a: a.__name__)
def test_a_server_that_is_not_a_scheduler_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: Callable[[socket.socket, threading.Event], None],
) -> None:
    """Was: a MemoryError or OverflowError traceback (Dask read the first bytes as a
    frame length), or no end at all (Dask waits for the handshake without a limit)."""
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", "1s")
    with stranger(answer) as address:
        status = main(["odds", "--deck", "20", "--deals", "5", "--cluster", address])
    assert status == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"machfsol: --cluster {address}: not a Dask scheduler (")


@pytest.mark.parametrize("address", ["local", "tls://10.0.0.5:8786"])
def test_cluster_without_the_extra_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    """Dask is the optional extra machfsol[cluster]: without it, --cluster says how to
    get it (a set-up problem), before any deal is played."""
    for module in ("distributed", "dask", "dask.config"):  # their imports fail
        monkeypatch.setitem(sys.modules, module, None)
    odds = ["odds", "--variant", "1", "--deck", "20", "--deals", "4", "--cluster", address]
    assert main(odds) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "--cluster needs Dask's distributed package" in err
    assert "pip install 'machfsol[cluster]'" in err
