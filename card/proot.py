"""Running an arm64 root under proot + qemu on this machine: the system calls proot 5.1
cannot translate, and libseccomp to answer them before it does.

``make card`` (``card.build``) and ``make bench-pi`` (``benchmarks.pi_install``) both run
arm64 programs so. The shared piece lives here, with the card, so that the card's build
imports nothing from the benchmarks: a benchmark measures the product and may import it,
never the other way round (``tests/test_import_graph.py``).

proot 5.1.0 (Debian Bookworm's) predates statx (Linux 4.11) and faccessat2 (5.8): it hands
their paths to this machine untranslated. Answered ENOSYS, as an older kernel would, glibc
and qemu fall back to fstatat and faccessat, which proot translates.
"""

from __future__ import annotations

import ctypes

#: Path calls proot 5.1 passes on untranslated: answered ENOSYS in every arm64 program.
NEWER_THAN_PROOT = ("statx", "faccessat2")
SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO = 0x00050000
SCMP_FLTATR_ACT_BADARCH = 2  # proot cancels calls with numbers libseccomp calls a bad arch


def seccomp() -> ctypes.CDLL:
    """libseccomp with the argument types of the calls made here (an OSError where the
    library is missing: ``apt-get install libseccomp2``)."""
    lib = ctypes.CDLL("libseccomp.so.2")
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                     ctypes.c_uint]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    return lib


__all__ = ["NEWER_THAN_PROOT", "SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO", "SCMP_FLTATR_ACT_BADARCH",
           "seccomp"]
