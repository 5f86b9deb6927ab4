"""Running the odds study's chunks on a Dask distributed cluster (``--cluster``).

A study is a list of independent chunks of deals (:class:`machfsol.odds.study.Job`),
and its result is the sum of their counts, so it does not matter where or in which
order they run. This module hands each chunk to a Dask scheduler as one task and yields
each result once, as it arrives:

* ``--cluster tcp://HOST:PORT`` uses a running scheduler (``dask scheduler`` on one
  machine, ``dask worker tcp://HOST:PORT --nthreads 1`` on each machine that lends its
  cores; every worker needs this package installed, the same version);
* ``--cluster local`` starts a throw-away cluster on this machine with ``--jobs`` worker
  processes (one thread each: the search is pure Python, so threads would share one
  core), the same code path as a real cluster, used by the tests.

Each chunk is one task with its own key, and the client adds a chunk's counts when its
task finishes, exactly once. When a
worker dies, the scheduler runs its unfinished tasks again on another worker (up to
Dask's ``allowed-failures``, 3 by default, then the study stops with an error): a chunk
is never counted twice, nor lost, and the sums are the same as on one machine.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from machfsol.errors import MachfsolError, UsageError

Task = TypeVar("Task")
Result = TypeVar("Result")

#: How long to wait for the scheduler before giving up (it may be on another machine).
CONNECT_TIMEOUT = "20s"
#: Where a local cluster's scheduler serves HTTP: any free port (":0").
LOCAL_HTTP_ADDRESS = ":0"


class ClusterError(MachfsolError):
    """The cluster could not be reached, or a chunk failed there (one-line message)."""


def check_address(address: str) -> str:
    """``local`` or a scheduler address such as ``tcp://10.0.0.5:8786`` (UsageError)."""
    if address == "local":
        return address
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    host, colon, port = rest.rpartition(":")
    if scheme not in ("tcp", "tls", "inproc", "ucx", "ws", "wss") or not colon or not host:
        raise UsageError(f"--cluster {address!r} is not 'local' or a scheduler address HOST:PORT")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--cluster {address!r}: port {port!r} is not 1..65535")
    return f"{scheme}://{rest}"


def run_on_cluster(
    tasks: Sequence[Task],
    function: Callable[[Task], Result],
    address: str,
    local_workers: int = 2,
) -> Iterator[tuple[int, Result]]:
    """Run ``function`` on every task on the cluster at ``address`` (or on a local one
    with ``local_workers`` processes); yield ``(index, result)`` as each task finishes,
    once per task. Raises ClusterError when the scheduler cannot be reached or a task
    fails for good (its worker died too often, or the function raised)."""
    from distributed import Client, LocalCluster, as_completed

    cluster: Any = None
    if address == "local":
        cluster = LocalCluster(
            n_workers=local_workers,
            threads_per_worker=1,
            processes=True,
            # The scheduler serves HTTP even without a dashboard, by default on port
            # 8787; a free port of its own keeps a second study (or a test run beside
            # this one) from warning that the port is taken.
            dashboard_address=LOCAL_HTTP_ADDRESS,
            silence_logs=logging.ERROR,
        )
        address = cluster.scheduler_address
    try:
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as error:
            raise ClusterError(
                f"--cluster {address}: cannot reach the scheduler ({error})"
            ) from None
        with client:
            # One key per task of this run: tasks are never merged, and two studies on
            # one scheduler never share a result.
            run = uuid.uuid4().hex
            keys = [f"machfsol-odds-{run}-{index}" for index in range(len(tasks))]
            futures = client.map(function, list(tasks), key=keys)
            index_of = {future.key: index for index, future in enumerate(futures)}
            for future in as_completed(futures):
                if future.status != "finished":
                    try:
                        future.result()
                    except Exception as error:
                        raise ClusterError(
                            f"--cluster {address}: a chunk failed ({type(error).__name__}: {error})"
                        ) from None
                yield index_of[future.key], future.result()
    finally:
        if cluster is not None:
            cluster.close()
