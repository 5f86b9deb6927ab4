"""machfsol odds and the network: a local cluster listens on the loopback interface only,
a real cluster is reached over mutual TLS with the certificates of one private CA (the
commands of docs/ODDS.md, certificates made here), a plain tcp:// address of another
machine is warned about, and bad TLS options are one-line usage errors."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dask.config
import psutil
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from distributed import Client

from machfsol.cli import main
from machfsol.errors import UsageError
from machfsol.odds import cli as odds_cli
from machfsol.odds import cluster as cluster_module
from machfsol.odds.cluster import (
    CONFIG_CA_FILE,
    CONFIG_CERT,
    CONFIG_KEY,
    ClusterError,
    TlsFiles,
    check_tls,
    is_loopback,
    plain_traffic_warning,
    run_on_cluster,
)

#: Long enough a study (about 2 s of work for 2 workers) for the cluster to be watched.
LOCAL_STUDY = ["odds", "--variant", "1", "--deck", "52", "--deals", "4000", "--solver-deals", "0"]
#: A small study for the TLS cluster.
TLS_STUDY = ["odds", "--variant", "2", "--deck", "28", "--deals", "600", "--solver-deals", "100"]
#: Seconds that any one wait of these tests may take before it fails.
PATIENCE = 45.0


# --- sockets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Listener:
    """A socket that accepts traffic: a listening TCP socket, or an unconnected UDP one."""

    pid: int
    kind: str
    address: str
    port: int


def listeners(root: psutil.Process) -> set[Listener]:
    """The listening sockets of ``root`` and all its descendants, as of now."""
    found: set[Listener] = set()
    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return found
    for process in processes:
        try:
            connections = process.net_connections(kind="inet")
        except psutil.Error:  # it ended between the two looks
            continue
        for connection in connections:
            tcp = connection.type == socket.SOCK_STREAM
            if (tcp and connection.status == psutil.CONN_LISTEN) or (
                not tcp and not connection.raddr
            ):
                kind = "tcp" if tcp else "udp"
                ip, port = connection.laddr.ip, connection.laddr.port
                found.add(Listener(process.pid, kind, ip, port))
    return found


def test_listeners_sees_a_socket_on_every_interface() -> None:
    """The watcher itself: a socket bound to 0.0.0.0 is seen, and is not loopback."""
    with socket.socket() as wide:
        wide.bind(("0.0.0.0", 0))
        wide.listen()
        port = wide.getsockname()[1]
        seen = listeners(psutil.Process())
    assert Listener(os.getpid(), "tcp", "0.0.0.0", port) in seen
    assert not is_loopback("0.0.0.0")


def test_a_local_study_listens_on_loopback_only() -> None:
    """`machfsol odds --cluster local --jobs 2`, watched from outside every 20 ms while
    it runs: every socket of its process tree listens on 127.0.0.1 (the scheduler, the
    nannies, the workers and the HTTP servers of the scheduler and the workers)."""
    command = [sys.executable, "-m", "machfsol", *LOCAL_STUDY, "--json"]
    study = subprocess.Popen(
        [*command, "--cluster", "local", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    root = psutil.Process(study.pid)
    seen: set[Listener] = set()
    most_processes = 0  # the most processes with a listening socket at one look
    deadline = time.monotonic() + PATIENCE
    try:
        while study.poll() is None and time.monotonic() < deadline:
            now = listeners(root)
            seen |= now
            most_processes = max(most_processes, len({listener.pid for listener in now}))
            time.sleep(0.02)
    finally:
        if study.poll() is None:
            study.kill()
        out, err = study.communicate()
    assert study.returncode == 0, err
    # The whole cluster was seen up: the study's own process (scheduler, nannies) and
    # both worker processes, so the scheduler's HTTP server was there to be seen too.
    assert most_processes >= 3, f"the cluster was never seen up: {sorted(seen, key=str)}"
    beyond = [s for s in seen if not is_loopback(s.address)]
    assert beyond == [], f"listening beyond loopback: {beyond}"
    alone = subprocess.run([*command, "--jobs", "1"], capture_output=True, text=True, check=True)
    assert json.loads(out) == json.loads(alone.stdout)


# --- certificates ----------------------------------------------------------------------


@dataclass(frozen=True)
class Issued:
    """A certificate and its private key, as PEM files."""

    cert: Path
    key: Path


class CertificateAuthority:
    """A private CA for one test cluster: every certificate it issues names the loopback
    interface and may serve as a server's and as a client's (Dask's TLS is mutual)."""

    def __init__(self, folder: Path, name: str) -> None:
        self.folder = folder
        self.name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.certificate = (
            self._builder(self.name, self.key.public_key())
            .issuer_name(self.name)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(_key_usage(certificates=True), critical=True)
            .sign(self.key, hashes.SHA256())
        )
        self.ca_file = folder / f"{name}.pem"
        self.ca_file.write_bytes(self.certificate.public_bytes(serialization.Encoding.PEM))

    def issue(self, name: str) -> Issued:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        loopback = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
        uses = [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
        ca_key_id = x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key())
        certificate = (
            self._builder(subject, key.public_key())
            .issuer_name(self.name)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_key_usage(certificates=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage(uses), critical=False)
            .add_extension(x509.SubjectAlternativeName(loopback), critical=False)
            .add_extension(ca_key_id, critical=False)
            .sign(self.key, hashes.SHA256())
        )
        issued = Issued(self.folder / f"{name}.pem", self.folder / f"{name}-key.pem")
        issued.cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        issued.key.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        return issued

    @staticmethod
    def _builder(
        subject: x509.Name, public_key: ec.EllipticCurvePublicKey
    ) -> x509.CertificateBuilder:
        now = datetime.datetime.now(datetime.UTC)
        return (
            x509.CertificateBuilder()
            .subject_name(subject)
            .public_key(public_key)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
        )


def _key_usage(certificates: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not certificates,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=certificates,
        crl_sign=certificates,
        encipher_only=False,
        decipher_only=False,
    )


@dataclass(frozen=True)
class Pki:
    """The cluster's CA and its certificates; and a stranger's, from another CA."""

    ca: CertificateAuthority
    scheduler: Issued
    worker: Issued
    client: Issued
    stranger: Issued


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    folder = tmp_path_factory.mktemp("pki")
    ca = CertificateAuthority(folder, "cluster-ca")
    other = CertificateAuthority(folder, "other-ca")
    return Pki(ca, ca.issue("scheduler"), ca.issue("worker"), ca.issue("client"), other.issue("x"))


def tls_options(ca: CertificateAuthority, own: Issued) -> list[str]:
    return [
        "--tls-ca-file",
        str(ca.ca_file),
        "--tls-cert",
        str(own.cert),
        "--tls-key",
        str(own.key),
    ]


# --- a TLS cluster ---------------------------------------------------------------------


def _start(command: list[str], log: Path) -> subprocess.Popen[bytes]:
    """A Dask command in a process group of its own (a worker's nanny starts the worker
    as a child), its output kept in ``log`` for a failure's message."""
    with log.open("wb") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *command],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _scheduler_address(scheduler: subprocess.Popen[bytes], file: Path, log: Path) -> str:
    """Wait for the scheduler to write its address (it does once it listens)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            pytest.fail(f"dask scheduler stopped: {log.read_text()}")
        try:
            return str(json.loads(file.read_text())["address"])
        except (OSError, ValueError, KeyError):  # not there yet, or half written
            time.sleep(0.1)
    pytest.fail(f"dask scheduler wrote no address in {PATIENCE} s: {log.read_text()}")


@pytest.fixture(scope="module")
def tls_cluster(pki: Pki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A TLS scheduler and two TLS workers, started with the commands of docs/ODDS.md
    (bound to 127.0.0.1 and free ports here); the scheduler's address once both
    workers have joined it."""
    folder = tmp_path_factory.mktemp("tls-cluster")
    started: list[subprocess.Popen[bytes]] = []
    try:
        file = folder / "scheduler.json"
        log = folder / "scheduler.log"
        scheduler = _start(
            [
                "scheduler",
                "--protocol",
                "tls",
                *tls_options(pki.ca, pki.scheduler),
                "--dashboard-address",
                "127.0.0.1:0",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--scheduler-file",
                str(file),
            ],
            log,
        )
        started.append(scheduler)
        address = _scheduler_address(scheduler, file, log)
        for number in (1, 2):
            worker = [
                "worker",
                address,
                *tls_options(pki.ca, pki.worker),
                "--nthreads",
                "1",
                "--dashboard-address",
                "127.0.0.1:0",
                "--host",
                "127.0.0.1",
            ]
            started.append(_start(worker, folder / f"worker{number}.log"))
        files = TlsFiles(pki.ca.ca_file, pki.client.cert, pki.client.key)
        with Client(address, security=files.security(), timeout=f"{PATIENCE}s") as client:
            client.wait_for_workers(2, timeout=PATIENCE)
            workers = list(client.scheduler_info()["workers"])
        assert len(workers) == 2 and all(w.startswith("tls://127.0.0.1:") for w in workers)
        yield address
    finally:
        for process in reversed(started):
            _stop(process)


def test_a_tls_cluster_gives_the_table_of_one_machine(
    pki: Pki, tls_cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tls_cluster.startswith("tls://127.0.0.1:")
    options = tls_options(pki.ca, pki.client)
    assert main([*TLS_STUDY, "--json", "--cluster", tls_cluster, *options]) == 0
    on_cluster = capsys.readouterr()
    assert "warning" not in on_cluster.err
    assert main([*TLS_STUDY, "--json", "--jobs", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(on_cluster.out)
    # The text table too, which is what a person reads.
    assert main([*TLS_STUDY, "--cluster", tls_cluster, *options]) == 0
    table = capsys.readouterr().out
    assert main([*TLS_STUDY]) == 0
    assert capsys.readouterr().out == table


def test_a_tls_cluster_refuses_a_stranger_and_plain_tcp(
    pki: Pki, tls_cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Authenticated both ways: a certificate of another CA gets no connection, and
    neither does a client without TLS."""
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", "2s")
    stranger = TlsFiles(pki.ca.ca_file, pki.stranger.cert, pki.stranger.key)
    with pytest.raises(ClusterError, match="cannot reach the scheduler"):
        list(run_on_cluster([1], str, tls_cluster, tls=stranger))
    plain = "tcp://" + tls_cluster.removeprefix("tls://")
    with pytest.raises(ClusterError, match="cannot reach the scheduler"):
        list(run_on_cluster([1], str, plain))


# --- options and warnings --------------------------------------------------------------


@pytest.fixture
def no_dask_tls_configuration() -> Iterator[None]:
    """The Dask configuration of whoever runs the tests must not fill in the options."""
    with dask.config.set({CONFIG_CA_FILE: None, CONFIG_CERT: None, CONFIG_KEY: None}):
        yield


@pytest.mark.parametrize(
    ("address", "warned"),
    [
        ("tcp://10.1.2.3:8786", True),
        ("tcp://scheduler.lan:8786", True),
        ("tcp://0.0.0.0:8786", True),
        ("tcp://[2001:db8::1]:8786", True),
        ("tcp://127.0.0.1:8786", False),
        ("tcp://127.3.4.5:8786", False),
        ("tcp://localhost:8786", False),
        ("tcp://[::1]:8786", False),
        ("tls://10.1.2.3:8786", False),
        ("local", False),
    ],
)
def test_plain_traffic_warning(address: str, warned: bool) -> None:
    warning = plain_traffic_warning(address)
    assert (warning is not None) == warned
    if warning is not None:
        assert "neither encrypted nor authenticated" in warning and "\n" not in warning


def test_cli_warns_in_one_line_before_any_connection(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The warning comes before the study starts (here it is stopped there: no traffic
    may leave this machine in a test)."""

    def stop_here(*_args: object, **_kwargs: object) -> list[object]:
        raise ClusterError("stopped before connecting")

    monkeypatch.setattr(odds_cli, "compute", stop_here)
    status = main(["odds", "--deck", "20", "--deals", "5", "--cluster", "10.1.2.3:8786"])
    assert status == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("machfsol: warning: --cluster tcp://10.1.2.3:8786: ")
    assert "neither encrypted nor authenticated" in lines[0]
    assert lines[-1] == "machfsol: stopped before connecting"


@pytest.mark.usefixtures("no_dask_tls_configuration")
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--tls-cert", "c.pem"], "--tls-cert needs --cluster tls://HOST:PORT"),
        (["--cluster", "local", "--tls-ca-file", "ca.pem"], "--tls-ca-file needs --cluster tls://"),
        (["--cluster", "tcp://127.0.0.1:1", "--tls-key", "k.pem"], "--tls-key needs --cluster tls"),
        (["--cluster", "tls://127.0.0.1:1"], "needs --tls-ca-file FILE (or distributed.comm.tls."),
    ],
)
def test_tls_options_out_of_place_are_usage_errors(
    options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", "--deck", "20", "--deals", "5", *options]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.usefixtures("no_dask_tls_configuration")
def test_bad_tls_files_are_usage_errors(
    pki: Pki, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each names the option and the file; the study does not start."""
    ca, client, stranger = str(pki.ca.ca_file), pki.client, pki.stranger
    not_pem = tmp_path / "notes.txt"
    not_pem.write_text("not a certificate\n")
    missing = tmp_path / "missing.pem"
    cases = [
        (["--tls-ca-file", ca], "needs --tls-cert FILE"),
        (["--tls-ca-file", str(missing), "--tls-cert", str(client.cert)], f"{missing}: no such"),
        (["--tls-ca-file", ca, "--tls-cert", str(tmp_path)], f"--tls-cert {tmp_path}: no such"),
        (
            ["--tls-ca-file", ca, "--tls-cert", str(client.cert), "--tls-key", str(missing)],
            f"--tls-key {missing}: no such file",
        ),
        (["--tls-ca-file", str(not_pem), "--tls-cert", str(client.cert)], "not a CA certificate"),
        (
            ["--tls-ca-file", ca, "--tls-cert", str(not_pem), "--tls-key", str(client.key)],
            f"--tls-cert {not_pem} with --tls-key {client.key}: not a certificate",
        ),
        (  # the key of another certificate
            ["--tls-ca-file", ca, "--tls-cert", str(client.cert), "--tls-key", str(stranger.key)],
            "not a certificate and its unencrypted private key",
        ),
        (  # no key: the certificate file alone holds none
            ["--tls-ca-file", ca, "--tls-cert", str(client.cert)],
            "not a certificate and its unencrypted private key",
        ),
    ]
    for options, message in cases:
        args = ["odds", "--deck", "20", "--deals", "5", "--cluster", "tls://127.0.0.1:1"]
        assert main([*args, *options]) == 2, options
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (options, err)


def test_the_dask_configuration_stands_in_for_the_options(pki: Pki, tmp_path: Path) -> None:
    address = "tls://127.0.0.1:1"
    settings = {
        CONFIG_CA_FILE: str(pki.ca.ca_file),
        CONFIG_CERT: str(pki.client.cert),
        CONFIG_KEY: str(pki.client.key),
    }
    with dask.config.set(settings):
        assert check_tls(address) == TlsFiles(pki.ca.ca_file, pki.client.cert, pki.client.key)
        # An option wins over the configuration.
        assert check_tls(address, cert=str(pki.worker.cert), key=str(pki.worker.key)) == TlsFiles(
            pki.ca.ca_file, pki.worker.cert, pki.worker.key
        )
    gone = tmp_path / "gone.pem"
    with (
        dask.config.set({**settings, CONFIG_CERT: str(gone)}),
        pytest.raises(UsageError, match=f"{CONFIG_CERT} {gone}: no such file"),
    ):
        check_tls(address)
    # The key inside the certificate file, as Dask allows.
    both = tmp_path / "client-with-key.pem"
    both.write_bytes(pki.client.cert.read_bytes() + pki.client.key.read_bytes())
    with dask.config.set({CONFIG_CA_FILE: None, CONFIG_CERT: None, CONFIG_KEY: None}):
        assert check_tls(address, str(pki.ca.ca_file), str(both)) == TlsFiles(
            pki.ca.ca_file, both, None
        )
