"""A process that must not outlive its parent: ``serve``'s workers (their supervisor) and an
app's helper processes (:mod:`api.server.offload`).

A parent killed with SIGKILL cannot stop its children. A worker left behind would keep serving
the port and holding database connections; a helper left importing would go on writing while
a new server starts and sweeps what it takes for a crash's remains. So each child asks to be
sent a signal the moment its parent is gone (:func:`die_with`):

* On Linux the kernel sends it, as the parent exits (``prctl(PR_SET_PDEATHSIG)``): no delay,
  nothing to watch. The kernel sends it when the *thread* that started the child ends, so the
  parents here start their children from their main thread (uvicorn's supervisor does; an
  app's helpers are started from its event loop, which runs in the main thread).
* Elsewhere a thread asks for the parent's process id every :data:`POLL_SECONDS`: a child
  whose parent died is adopted by another process.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 0.1


def die_with(parent: int, signal_number: int) -> None:
    """Have this process sent ``signal_number`` once its parent, the process ``parent``, is
    gone; at once if it is gone already."""
    if not _kernel_sends(signal_number):
        threading.Thread(target=watch, args=(parent, signal_number), name="parent-watch",
                         daemon=True).start()
    elif os.getppid() != parent:  # it died before the kernel was asked to tell
        os.kill(os.getpid(), signal_number)


def _kernel_sends(signal_number: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(PR_SET_PDEATHSIG, signal_number, 0, 0, 0)) == 0


def watch(parent: int, signal_number: int) -> None:
    """Where the kernel does not tell: wait, polling, until ``parent`` is no longer this
    process's parent, then send ``signal_number`` to this process."""
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os.kill(os.getpid(), signal_number)
