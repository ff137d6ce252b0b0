"""Standard output sent to standard error for a while, at the file-descriptor level too.

Ray's driver prints lines of its own (a worker that died, its log monitor) to the process's
standard output, from threads and from C++, even with `log_to_driver=False`; a command's
standard output must carry only what the command prints. While `stdout_to_stderr()` is
active, both Python's `sys.stdout` and file descriptor 1 write to standard error.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Everything written to standard output inside the block goes to standard error."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)
