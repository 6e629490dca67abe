"""``dipclock hub --data DIR``: make sure the TD password and the certificate exist, then serve.

The password is never defaulted: on first start it comes from ``DIPCLOCK_TD_PASSWORD``,
``--td-password-file``, or a terminal prompt; with none of these the hub exits 2.

Hub time is anchored on the wall clock once, at start, so the hub first waits (up to
``--wait-for-sync`` seconds) for NTP to synchronise the system clock: a Pi boots on
fake-hwclock's guess, possibly hours old. With no time server in the hall it starts anyway
and the TD sets the time from the dashboard.

The hub serves HTTPS with a certificate it makes at its first start (``server.certificate``);
``--plain-http`` serves plain HTTP instead, with a warning: passwords and clocks' tokens
then cross the hall's Wi-Fi in clear.

The hub binds its port itself before it says where it listens (``--port 0``: a free one the
system picks, and the lines printed give it), or serves a socket it is handed (``--fd N``,
from a supervisor or a test harness); a port that is taken is one line and exit status 2.
It prints its addresses before it waits for NTP, so they are known during the wait. A hub on a
loopback address (``--host 127.0.0.1``) is not announced by mDNS: no kiosk could reach it.
"""

from __future__ import annotations

import argparse
import errno
import getpass
import os
import socket
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from dipclock.arguments import Parser, add_lang, words_for, words_in
from dipclock.errors import DipclockError
from dipclock.i18n import ENGLISH, Words, said
from machine.environ import forget
from machine.passwords import check_new_password, hash_password, is_hash
from machine.timesync import boot_id, clock_synchronised
from server import certificate
from server.clock import standing_of
from server.settings import Settings
from server.store import Store

ENV_PASSWORD = "DIPCLOCK_TD_PASSWORD"
#: A hub serves a hall: the kiosks and the TD's phone reach it over the LAN, so it listens on
#: every address unless told otherwise (``--host``).
ALL_ADDRESSES = "0.0.0.0"
DEFAULT_PORT = 8000


class HubError(DipclockError):
    """A problem the operator fixes: one line on stderr, exit status 2."""


def _parser() -> Parser:
    p = Parser(prog="dipclock hub", description="Run the hub: kiosks' clock and TD dashboard.",
               refusal=HubError)
    p.add_argument("--data", required=True, type=Path, help="directory for the hub's state")
    p.add_argument("--host", metavar="ADDRESS",
                   help="address to listen on (default 0.0.0.0: every address of this machine, "
                        "so the kiosks and phones on the hall's network reach it; "
                        "127.0.0.1: this machine only)")
    p.add_argument("--port", type=int,
                   help=f"port (default {DEFAULT_PORT}; 0: a free one the system picks, "
                        "printed at start)")
    p.add_argument("--fd", type=int, metavar="N",
                   help="serve the TCP socket open as file descriptor N, already bound (and "
                        "perhaps listening), inherited from the process that starts the hub "
                        "(a supervisor, a test harness), instead of binding --host and --port: "
                        "the lines printed give the socket's own address")
    p.add_argument("--td-password-file", type=Path, help="first start: read the TD password here")
    p.add_argument("--td-password-hash-file", type=Path, metavar="FILE",
                   help="first start: read the TD password's hash here (the installer's "
                        "/etc/dipclock/td-password.hash: no plaintext kept on disk)")
    p.add_argument("--wait-for-sync", type=float, default=90.0, metavar="SECONDS",
                   help="wait this long for NTP to set the system clock (default 90; 0: no wait)")
    p.add_argument("--trust-proxy", metavar="ADDRESSES",
                   help="a reverse proxy's address(es), comma-separated: only then is "
                        "X-Forwarded-For believed (default: never)")
    p.add_argument("--no-mdns", action="store_true",
                   help="do not announce the hub on the LAN (kiosks then need its address)")
    p.add_argument("--plain-http", action="store_true",
                   help="serve plain HTTP, not HTTPS: the TD password and the clocks' tokens "
                        "cross the network in clear (only behind a TLS proxy, or to test)")
    add_lang(p)
    return p


def wait_for_sync(
    limit: float,
    synced: Callable[[], bool | None] = clock_synchronised,
    mono: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    say: Callable[[str], None] = print,
    every: float = 1.0,
) -> bool | None:
    """Wait up to ``limit`` s for the system clock to be synchronised; say so once, and how
    it ended. Returns what the kernel said last (None: this machine cannot tell)."""
    state = synced()
    if state is not False or limit <= 0:
        return state
    say(f"Waiting up to {limit:g} s for the system clock to synchronise (NTP); the addresses "
        "above answer once it has, or when the wait ends ...")
    start = mono()
    while state is False and mono() - start < limit:
        sleep(min(every, max(0.0, limit - (mono() - start))))
        state = synced()
    waited = mono() - start
    if state:
        say(f"System clock synchronised after {round(waited, 1):g} s.")
    else:
        say(f"The system clock is still not synchronised after {round(waited, 1):g} s: "
            "starting anyway."
            " Compare the hub's time with your phone's on the dashboard.")
    return state


def kept_this_boot(data: Path, boot: str | None) -> str | None:
    """The standing of the time the hub kept earlier in this boot, which it takes back
    (``server.hubtime``); None: it anchors on the wall clock."""
    from server.hubtime import kept_this_boot as kept

    store = Store(Settings(data_dir=data).db_path)
    try:
        return kept(store, boot)
    finally:
        store.close()


def _new_password(args: argparse.Namespace, words: Words = ENGLISH) -> str:
    if os.environ.get(ENV_PASSWORD):
        password, where = os.environ[ENV_PASSWORD], ENV_PASSWORD
    elif args.td_password_file is not None:
        try:
            password = args.td_password_file.read_text(encoding="utf-8").strip("\r\n")
        except OSError as exc:
            raise HubError(said("--td-password-file: cannot read it: {reason}",
                                reason=exc.strerror)) from None
        where = str(args.td_password_file)
    elif sys.stdin.isatty():
        password = getpass.getpass(words("Choose the TD password: "))
        if getpass.getpass(words("Type it again: ")) != password:
            raise HubError(said("the two passwords differ"))
        where = words("the prompt")
    else:
        raise HubError(said("no TD password: set {variable}, use --td-password-file FILE, "
                            "or run on a terminal to be asked", variable=ENV_PASSWORD))
    problem = check_new_password(password)
    if problem:
        raise HubError(said("{problem} (from {where})", problem=problem, where=where))
    return password


def _stored_hash(args: argparse.Namespace) -> str | None:
    """The hash in ``--td-password-hash-file``, if given (the environment's password, if
    set, wins: it is what the operator typed last)."""
    path = args.td_password_hash_file
    if path is None or os.environ.get(ENV_PASSWORD):
        return None
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise HubError(said("--td-password-hash-file: cannot read it: {reason}",
                            reason=exc.strerror)) from None
    if not is_hash(text):
        raise HubError(said("--td-password-hash-file {path}: not a password hash (make one "
                            "with: python3 -m machine.passwords < a file holding it)",
                            path=str(path)))
    return text


def prepare(args: argparse.Namespace, words: Words = ENGLISH) -> None:
    """Store the password hash (first start only; a prompt for it in ``words``)."""
    store = Store(Settings(data_dir=args.data).db_path)
    try:
        if store.meta("td_password_hash") is None:
            store.set_meta_once("td_password_hash", _stored_hash(args)
                                or hash_password(_new_password(args, words)))
    finally:
        store.close()


def tls(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """The certificate and key to serve (made at the first start), or none for
    ``--plain-http``; says which, and the fingerprint the TD checks once."""
    if args.plain_http:
        print("WARNING:    plain HTTP (--plain-http): the TD password and the clocks' tokens "
              "cross the network in clear", flush=True)
        return None, None
    try:
        cert, key, made = certificate.ensure(args.data)
        fp = certificate.fingerprint_of(cert)
    except (OSError, ValueError) as exc:
        raise HubError(said("cannot make or read the hub's certificate in {folder}: {error}",
                            folder=str(args.data), error=str(exc))) from None
    print(f"Certificate: {'made now, ' if made else ''}SHA-256 {fp}", flush=True)
    print("             the TD's phone warns once of a certificate it does not know: check "
          "this fingerprint there, then accept it", flush=True)
    return cert, key


def lan_address(host: str) -> str:
    """The address to type on the TD's phone: this machine's LAN IP when listening on all."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def listening_line(host: str, port: int) -> str:
    """Say where the hub listens, and how to change it: the operator should never have to
    guess whether the hall's network can reach it."""
    if host in (ALL_ADDRESSES, "::", ""):
        return (f"Listening:  every address of this machine ({host or ALL_ADDRESSES}), "
                f"port {port}; --host 127.0.0.1 for this machine only")
    return f"Listening:  {host} only, port {port}"


def listen_socket(args: argparse.Namespace) -> socket.socket:
    """The socket the hub serves: ``--fd``'s, or one bound now to ``--host``:``--port``
    (before anything is printed, so the lines give the real port and a taken one stops
    the hub at once)."""
    from server import serve

    if args.fd is not None:
        if args.host is not None or args.port is not None:
            raise HubError(said("--fd: the socket handed over has its own address; give no "
                                "--host or --port with it"))
        try:
            return serve.inherited(args.fd)
        except OSError as exc:
            raise HubError(said("--fd {fd}: not an open socket ({reason})", fd=args.fd,
                                reason=exc.strerror)) from None
        except ValueError as exc:
            raise HubError(said("--fd {fd}: {error}", fd=args.fd, error=str(exc))) from None
    host = ALL_ADDRESSES if args.host is None else args.host
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise HubError(said("--port {port}: must be 0-65535 (0: a free one)", port=port))
    not_here = said("--host {host}: not an address of this machine", host=host)
    try:
        return serve.bind(host, port)
    except socket.gaierror:
        raise HubError(not_here) from None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise HubError(said("port {port} on {host} is taken (another program, perhaps "
                                "another hub, listens there): choose another with --port N",
                                port=port, host=host)) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise HubError(not_here) from None
        raise HubError(said("cannot listen on {host} port {port}: {reason}", host=host,
                            port=port, reason=exc.strerror)) from None


def _refused(exc: DipclockError, words: Words) -> int:
    """The operator's one line on stderr, in the command's language; exit status 2."""
    print(words("dipclock hub: error: {message}", message=exc.in_(words)), file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    words = words_in(given, os.environ)  # an option refused before --lang is said in it
    try:
        args = _parser().parse_args(given)
        words = words_for(args, os.environ)
        if not 0 <= args.wait_for_sync <= 24 * 3600:
            seconds = format(args.wait_for_sync, "g")
            raise HubError(said("--wait-for-sync {seconds}: give 0 to 86400 seconds",
                                seconds=seconds))
        sock = listen_socket(args)
    except DipclockError as exc:  # HubError, and --lang's own LanguageError
        return _refused(exc, words)
    try:
        return _serve(args, sock, words)
    finally:
        sock.close()  # uvicorn closed it already when it served it


def _serve(args: argparse.Namespace, sock: socket.socket, words: Words = ENGLISH) -> int:
    try:
        prepare(args, words)
        forget(ENV_PASSWORD)  # read: it has no more business in the hub's environment
        cert, key = tls(args)
    except HubError as exc:
        return _refused(exc, words)
    import uvicorn

    from server import gcpauses, mdns, serve
    from server.app import create_app
    from server.slowclients import raise_file_limit

    proxies = tuple(a.strip() for a in (args.trust_proxy or "").split(",") if a.strip())
    host, port = serve.address_of(sock)  # the real port, also when --port 0 or --fd
    settings = Settings(data_dir=args.data, host=host, port=port,
                        mdns=not args.no_mdns and mdns.announced(host),
                        trusted_proxies=proxies, certificate=cert, private_key=key)
    # where it listens first: with --port 0 nobody knows the port until it is printed,
    # and the wait for NTP below may take a minute and a half
    for line in start_lines(settings, args.no_mdns):
        print(line, flush=True)
    kept = kept_this_boot(args.data, boot_id())
    try:  # a restart in the same boot takes its time back: nothing to wait for
        synced = wait_for_sync(0 if kept else args.wait_for_sync,
                               say=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        return 130
    standing = f"{kept}, kept across the restart" if kept else standing_of(synced)
    print(f"Hub clock:  {standing}", flush=True)  # the last line: it serves from here on
    raise_file_limit()  # slow clients hold files: the default 1,024 locked a hall out once
    server = uvicorn.Server(serve.config(create_app(settings), settings))
    gcpauses.settle()  # built: no full collection walks the hub's own objects again
    serve.run(server, sock)
    return 0


def start_lines(settings: Settings, no_mdns: bool) -> list[str]:
    """Where the hub listens, its addresses, and whether the hall's network hears of it."""
    host, port = settings.host, settings.port
    lan = lan_address(host)
    where = f"{settings.scheme}://{f'[{lan}]' if ':' in lan else lan}:{port}"
    lines = [
        listening_line(host, port),
        f"Dashboard:  {where}/dashboard",
        f"Hall clock: {where}/hall",
        "Clocks:     each table's clock shows a code: approve it on the dashboard, "
        "under Clocks",
    ]
    if settings.mdns:
        lines.append("Kiosks find this hub on the LAN (mDNS _dipclock._tcp); --no-mdns to stop")
    elif not no_mdns:
        lines.append(f"Not announced on the LAN (mDNS): on {host} only this machine reaches "
                     "the hub")
    return lines
