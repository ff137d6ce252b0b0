"""`stdout_to_stderr`: what a library prints to standard output while Ray runs (from Python,
from another thread, or straight to file descriptor 1) goes to standard error, and the
command's own output after it to standard output."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """\
    import os, sys, threading
    from kubesched.experiment._stdout import stdout_to_stderr

    print("before")
    with stdout_to_stderr():
        print("python print")
        os.write(1, b"fd one\\n")
        thread = threading.Thread(target=lambda: print("from a thread"))
        thread.start()
        thread.join()
        sys.stdout.write("partial line without newline")
    print("after")
    os.write(1, b"fd one after\\n")
    """
)


def test_everything_printed_inside_goes_to_stderr_and_nothing_after() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout == "before\nafter\nfd one after\n"
    for text in ("python print", "fd one", "from a thread", "partial line without newline"):
        assert text in done.stderr
