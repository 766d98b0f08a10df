"""A folder a command cannot write in, for whoever runs the tests.

As a user, the folder's permissions (mode 555). Root is not bound by permissions, so for root the
command runs in a private mount namespace where the folder is a read-only bind mount of itself
(``unshare --mount``; the kernel refuses root there too, with "Read-only file system"). The tests of
read-only out and cache folders thus run in CI, which runs as root, instead of being skipped.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

_READ_ONLY_MOUNT = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"'


@contextmanager
def unwritable(folder: Path) -> Iterator[tuple[list[str], str]]:
    """Inside: (the words to put before a command so that ``folder`` is not writable to it, the reason
    its error will give)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield [], "Permission denied"
        finally:
            folder.chmod(0o755)
        return
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        pytest.skip("as root, needs unshare and mount (util-linux) for a read-only folder")
    yield ["unshare", "--mount", "--", "sh", "-c", _READ_ONLY_MOUNT, "sh", str(folder)], "Read-only file system"
