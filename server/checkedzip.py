"""A zip that carries its own checksums: the hub backup (``server.backup``) and the event
archive (``server.archive``) are both one, read the same way.

A ``manifest.json`` names the file's kind (``format``), its version and each member's
SHA-256; a file is taken only when all of it is there and whole: a truncated download, a
file of another kind, one made by a newer dipclock or one that would unpack to more than a
hub holds are each refused in one line, before anything is written.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dipclock.i18n import Said, said

MANIFEST = "manifest.json"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Kind:
    """One kind of checked zip: its ``format`` and newest ``version``, the member its
    manifest must list, its limits, and its refusals' words, said in the
    reader's language (``newer``: a sentence marked ``N_`` with the ``{version}`` of
    dipclock that made it; ``damaged``: one with ``{why}``)."""

    format: str
    version: int
    required: str
    manifest_most: int
    unpacked_most: int
    not_it: Said
    newer: str
    list_damaged: Said
    damaged: str
    too_big: Said


def read_checked(data: bytes, kind: Kind, refuse: Callable[[Said], Exception],
                 listed_ok: Callable[[Mapping[str, str]], bool] = lambda _: True
                 ) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and every member of ``data``, each checked against its checksum;
    ``refuse(words)`` is raised otherwise. ``listed_ok``: what else the kind asks of the
    list of members (a backup's certificate with its key)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = {i.filename: i for i in z.infolist()}
        if MANIFEST not in infos or infos[MANIFEST].file_size > kind.manifest_most:
            raise refuse(kind.not_it)
        manifest = json.loads(z.read(MANIFEST))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        raise refuse(kind.not_it) from None
    if not isinstance(manifest, dict) or manifest.get("format") != kind.format:
        raise refuse(kind.not_it)
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > kind.version:
        raise refuse(Said(kind.newer, {"version": str(manifest.get("dipclock"))}))
    members = manifest.get("members")
    if not isinstance(members, dict) or kind.required not in members or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in members.items()) \
            or not listed_ok(members):
        raise refuse(kind.list_damaged)
    for name in infos:
        if name != MANIFEST and name not in members:
            raise refuse(Said(kind.damaged, {"why": said("{name} is not one of its files",
                                                         name=name)}))
    if sum(infos[n].file_size for n in members if n in infos) > kind.unpacked_most:
        raise refuse(kind.too_big)
    got: dict[str, bytes] = {}
    for name, digest in members.items():
        try:
            body = z.read(name)
        except (KeyError, zipfile.BadZipFile, ValueError, EOFError, OSError):
            raise refuse(Said(kind.damaged, {"why": said("{name} cannot be read",
                                                         name=name)})) from None
        if sha256(body) != digest:
            raise refuse(Said(kind.damaged, {"why": said("{name} does not match its "
                                                         "checksum", name=name)}))
        got[name] = body
    return manifest, got


__all__ = ["MANIFEST", "Kind", "read_checked", "sha256"]
