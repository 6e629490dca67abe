"""The hub's settings: one object built by the CLI (or a test) and handed to ``create_app``."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class Settings(BaseModel):
    """Where the state lives, where to listen, and the few knobs worth a test changing."""

    model_config = ConfigDict(frozen=True)

    data_dir: Path
    host: str = "0.0.0.0"
    port: int = Field(default=8000, ge=1, le=65535)
    #: Stored on first start if the data dir has no password yet (the CLI hashes it).
    td_password_hash: str | None = None
    session_hours: float = 24.0
    login_failures: int = 5  # per client IP ...
    login_window: float = 60.0  # ... within this many seconds, then 429
    send_timeout: float = 5.0  # a kiosk that takes longer to take a snapshot is dropped
    online_seconds: float = 20.0  # a polling kiosk seen this recently counts as connected
    #: announce the hub on the LAN (server.mdns); the CLI turns it on unless --no-mdns
    mdns: bool = False
    #: a request head must arrive within this of its first byte (``server.slowclients``)
    head_seconds: float = Field(default=10.0, gt=0)
    #: connections one client address may hold at once
    per_address: int = Field(default=64, ge=1)
    #: a reverse proxy's addresses (``--trust-proxy``): its X-Forwarded-For is believed,
    #: and its connections are not capped (it carries every client's)
    trusted_proxies: tuple[str, ...] = ()
    #: the certificate and its key (PEM, ``server.certificate``): served over HTTPS, and the
    #: TD's cookie ``Secure``. The CLI makes them unless told ``--plain-http``; a test app
    #: is plain HTTP unless it gives them.
    certificate: Path | None = None
    private_key: Path | None = None
    #: the back room's bounds on a heavy job, a seating draft (``server.backroom``): its
    #: seconds, the memory it may take (MB), and how many may wait while one runs
    job_seconds: float = Field(default=60.0, gt=0)
    job_memory_mb: int = Field(default=512, ge=1)
    jobs_waiting: int = Field(default=3, ge=0)
    #: the hub backup kept in the data folder (``server.backup``): looked at every this many
    #: seconds, written when the TD changed something since (so at most once per period),
    #: and every ``backup_schedule`` seconds when only the tables' presses changed
    backup_seconds: float = Field(default=30.0, gt=0)
    backup_schedule: float = Field(default=600.0, gt=0)

    @property
    def https(self) -> bool:
        return self.certificate is not None

    @property
    def scheme(self) -> str:
        return "https" if self.https else "http"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "hub.sqlite3"
