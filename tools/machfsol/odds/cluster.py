"""Running the odds study's chunks on a Dask distributed cluster (``--cluster``).

A study is a list of independent chunks of deals (:class:`machfsol.odds.study.Job`),
and its result is the sum of their counts, so it does not matter where or in which
order they run. This module hands each chunk to a Dask scheduler as one task and yields
each result once, as it arrives:

* ``--cluster tls://HOST:PORT`` uses a running scheduler over TLS (``dask scheduler``
  on one machine, ``dask worker tls://HOST:PORT --nthreads 1`` on each machine that
  lends its cores, all with certificates of one private CA; every worker needs this
  package installed, the same version). Dask's TLS is mutual: this client shows its
  own certificate too (:class:`TlsFiles`), so only holders of the CA's certificates
  can send work to the cluster or read its results;
* ``--cluster tcp://HOST:PORT`` does the same in the clear: anyone on the path can read
  the chunks and the counts, and anyone who reaches the port can run code on the
  workers (Dask sends pickled functions). Fine on one machine or a trusted network;
  :func:`plain_traffic_warning` says so for any other host;
* ``--cluster local`` starts a throw-away cluster on this machine with ``--jobs`` worker
  processes (one thread each: the search is pure Python, so threads would share one
  core), the same code path as a real cluster, used by the tests. Every socket it
  opens (the scheduler's, the nannies', the workers', and the HTTP servers that the
  scheduler and each worker start even without a dashboard) listens on the loopback
  interface only: nothing of a local study is reachable from the network.

Each chunk is one task with its own key, and the client adds a chunk's counts when its
task finishes, exactly once. When a
worker dies, the scheduler runs its unfinished tasks again on another worker (up to
Dask's ``allowed-failures``, 3 by default, then the study stops with an error): a chunk
is never counted twice, nor lost, and the sums are the same as on one machine.
"""

from __future__ import annotations

import ipaddress
import logging
import ssl
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from machfsol.errors import MachfsolError, UsageError

Task = TypeVar("Task")
Result = TypeVar("Result")

#: How long to wait for the scheduler before giving up (it may be on another machine).
CONNECT_TIMEOUT = "20s"
#: The address every socket of a local cluster is bound to.
LOOPBACK = "127.0.0.1"
#: Where a local cluster's scheduler serves HTTP: any free port of the loopback
#: interface. (A bare ":0" would be every interface: Dask reads an empty host there
#: as 0.0.0.0, whatever the scheduler's own host.)
LOCAL_HTTP_ADDRESS = f"{LOOPBACK}:0"
#: The schemes of a scheduler address: plain TCP, or TCP inside TLS.
SCHEMES = ("tcp", "tls")

#: The Dask configuration keys that stand in for the ``--tls-*`` options.
CONFIG_CA_FILE = "distributed.comm.tls.ca-file"
CONFIG_CERT = "distributed.comm.tls.client.cert"
CONFIG_KEY = "distributed.comm.tls.client.key"


class ClusterError(MachfsolError):
    """The cluster could not be reached, or a chunk failed there (one-line message)."""


def check_address(address: str) -> str:
    """``local`` or a scheduler address such as ``tls://10.0.0.5:8786`` (UsageError);
    an address without a scheme is ``tcp://``, as in Dask."""
    if address == "local":
        return address
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    host, colon, port = rest.rpartition(":")
    if scheme not in SCHEMES or not colon or not host:
        raise UsageError(
            f"--cluster {address!r} is not 'local' or a scheduler address "
            "tls://HOST:PORT or tcp://HOST:PORT"
        )
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--cluster {address!r}: port {port!r} is not 1..65535")
    return f"{scheme}://{rest}"


def is_loopback(host: str) -> bool:
    """``localhost`` or an address of the loopback interface (127.0.0.0/8, ``[::1]``).
    Other names are not looked up: a name is taken for a machine of the network."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def plain_traffic_warning(address: str) -> str | None:
    """The warning for a checked ``tcp://`` address of another machine (None for
    ``local``, ``tls://`` and the loopback interface, where nobody else listens in)."""
    scheme, _sep, rest = address.partition("://")
    host = rest.rpartition(":")[0]
    if scheme != "tcp" or is_loopback(host):
        return None
    return (
        f"--cluster {address}: the traffic to the cluster is neither encrypted nor "
        "authenticated (tls://HOST:PORT is both: docs/ODDS.md)"
    )


@dataclass(frozen=True)
class TlsFiles:
    """What this client needs for a ``tls://`` scheduler: the cluster's CA
    certificate(s), which the scheduler's and workers' certificates must be signed by,
    and this client's own certificate and key, which they ask for in turn (Dask's TLS
    is mutual). ``key`` None: the key is in the certificate file."""

    ca_file: Path
    cert: Path
    key: Path | None = None

    def security(self) -> Any:
        """Dask's ``Security`` for a client that never falls back to plain TCP."""
        from distributed import Security

        return Security(
            tls_ca_file=str(self.ca_file),
            tls_client_cert=str(self.cert),
            tls_client_key=None if self.key is None else str(self.key),
            require_encryption=True,
        )


class TlsFile(NamedTuple):
    """A file of the TLS set-up, and the option or configuration key that named it."""

    path: Path
    origin: str


def check_tls(
    address: str | None,
    ca_file: str | None = None,
    cert: str | None = None,
    key: str | None = None,
) -> TlsFiles | None:
    """The TLS files for a checked ``--cluster`` address: the ``--tls-ca-file``,
    ``--tls-cert`` and ``--tls-key`` options, each one not given taken from the Dask
    configuration (``distributed.comm.tls.ca-file``, ``.client.cert``,
    ``.client.key``); None for any other address. Raises UsageError for an option
    without a ``tls://`` address, a missing CA or certificate, and a file that is
    missing or not PEM: the study must not start only to fail on its first connection."""
    if address is None or not address.startswith("tls://"):
        for option, value in (("--tls-ca-file", ca_file), ("--tls-cert", cert), ("--tls-key", key)):
            if value is not None:
                raise UsageError(f"{option} needs --cluster tls://HOST:PORT")
        return None
    ca = _tls_file(address, ca_file, "--tls-ca-file", CONFIG_CA_FILE, required=True)
    own_cert = _tls_file(address, cert, "--tls-cert", CONFIG_CERT, required=True)
    own_key = _tls_file(address, key, "--tls-key", CONFIG_KEY, required=False)
    assert ca is not None and own_cert is not None
    _check_pem(ca, own_cert, own_key)
    return TlsFiles(ca.path, own_cert.path, None if own_key is None else own_key.path)


def _tls_file(
    address: str, value: str | None, option: str, config_key: str, required: bool
) -> TlsFile | None:
    """The file given by the option, else by the Dask configuration; it must exist."""
    try:  # an optional extra: machfsol[cluster]
        import dask.config
    except ImportError:
        raise _without_the_extra() from None

    if value is not None:
        found = TlsFile(Path(value), option)
    elif (configured := dask.config.get(config_key, None)) is not None:
        found = TlsFile(Path(configured), config_key)
    elif required:
        raise UsageError(
            f"--cluster {address} needs {option} FILE (or {config_key} in the Dask configuration)"
        )
    else:
        return None
    if not found.path.is_file():
        raise UsageError(f"{found.origin} {found.path}: no such file")
    return found


def _check_pem(ca: TlsFile, cert: TlsFile, key: TlsFile | None) -> None:
    """Load the files as Dask will (UsageError naming the file that fails)."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    try:
        context.load_verify_locations(cafile=ca.path)
    except (ssl.SSLError, OSError) as error:
        raise UsageError(
            f"{ca.origin} {ca.path}: not a CA certificate in PEM form ({_reason(error)})"
        ) from None
    try:
        # An empty password: an encrypted key fails here instead of prompting for one.
        context.load_cert_chain(cert.path, None if key is None else key.path, password="")
    except (ssl.SSLError, OSError) as error:
        files = f"{cert.origin} {cert.path}"
        if key is not None:
            files += f" with {key.origin} {key.path}"
        raise UsageError(
            f"{files}: not a certificate and its unencrypted private key in PEM form "
            f"({_reason(error)})"
        ) from None


def _reason(error: OSError) -> str:
    """OpenSSL's short reason (``NO_START_LINE``), else the system's (``Permission denied``)."""
    reason = getattr(error, "reason", None)
    return str(reason or error.strerror or error)


def _without_the_extra() -> UsageError:
    """The error when Dask is not installed: it is the optional extra machfsol[cluster]."""
    return UsageError(
        "--cluster needs Dask's distributed package, an optional part of machfsol: "
        "pip install 'machfsol[cluster]' (in a checkout: pip install -e '.[cluster]')"
    )


def _check_scheduler(address: str, security: Any) -> None:
    """Raise ClusterError unless a Dask scheduler answers at ``address``.

    Dask's client reads whatever a server first sends as its frame lengths and waits for
    its handshake without a limit: another kind of server (a web server, an SSH daemon)
    would end in a MemoryError traceback or never end at all. One connection of Dask's
    own, limited in time, and every failure of it named, comes first."""
    import asyncio

    from dask.utils import parse_timedelta
    from distributed import Security
    from distributed.comm import connect

    seconds = parse_timedelta(CONNECT_TIMEOUT, default="s")
    arguments = (security or Security()).get_connection_args("client")

    async def handshake() -> None:
        comm = await connect(address, timeout=seconds, **arguments)
        await comm.close()

    try:
        # Dask gives up connecting after ``seconds``: still waiting twice as long, the
        # connection was made and no handshake came.
        asyncio.run(asyncio.wait_for(handshake(), 2 * seconds))
    except TimeoutError:
        raise ClusterError(
            f"--cluster {address}: not a Dask scheduler (it took the connection but sent "
            f"no Dask handshake within {2 * seconds:g} s)"
        ) from None
    except OSError as error:  # refused, unreachable, closed, or TLS refused
        raise ClusterError(f"--cluster {address}: cannot reach the scheduler ({error})") from None
    except Exception as error:  # bytes Dask cannot decode (an allocation it cannot make...)
        raise ClusterError(
            f"--cluster {address}: not a Dask scheduler (its answer is not Dask's "
            f"protocol: {type(error).__name__})"
        ) from None


def run_on_cluster(
    tasks: Sequence[Task],
    function: Callable[[Task], Result],
    address: str,
    local_workers: int = 2,
    tls: TlsFiles | None = None,
) -> Iterator[tuple[int, Result]]:
    """Run ``function`` on every task on the cluster at ``address`` (or on a local one
    with ``local_workers`` processes); yield ``(index, result)`` as each task finishes,
    once per task. ``tls`` gives the files of a ``tls://`` address (None: Dask's
    configuration). Raises ClusterError when the scheduler cannot be reached, what
    answers is not a Dask scheduler, or a task fails for good (its worker died too
    often, or the function raised)."""
    try:  # an optional extra: machfsol[cluster]
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise _without_the_extra() from None

    cluster: Any = None
    if address == "local":
        cluster = LocalCluster(
            n_workers=local_workers,
            threads_per_worker=1,
            processes=True,
            # The scheduler, the nannies and the workers listen on this host; each
            # worker's HTTP server too (it has no address of its own here).
            host=LOOPBACK,
            # The scheduler serves HTTP even without a dashboard, by default on port
            # 8787 of every interface; a free loopback port of its own keeps it off
            # the network, and keeps a second study (or a test run beside this one)
            # from warning that the port is taken.
            dashboard_address=LOCAL_HTTP_ADDRESS,
            silence_logs=logging.ERROR,
        )
        address = cluster.scheduler_address
    else:
        _check_scheduler(address, None if tls is None else tls.security())
    try:
        try:
            client = Client(
                address,
                timeout=CONNECT_TIMEOUT,
                security=None if tls is None else tls.security(),
            )
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
