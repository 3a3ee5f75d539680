"""Fresh notebook kernels without paying for Python's imports each time: kernels forked from a warm process.

A kernel usually starts as a new interpreter (``python -m ipykernel_launcher``), and then the notebook imports
SymPy, NumPy, Matplotlib and derive: about a second per notebook before its first claim. Here one server process
(``python -m derive.run.kernels``) imports all of that once and forks one child per notebook, which becomes an
ordinary IPython kernel: the same ``IPKernelApp`` the launcher runs, in a process and session of its own, with
its own namespace and claim registry, spoken to over IPC sockets. Only already-imported modules are shared, and
importing a module again changes nothing; NumPy's global generator is reseeded in each kernel, as Python's
``random`` is on every fork. The server exits when its caller does (its stdin closes), and each kernel exits
with the server. POSIX only (it forks).
"""
from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from queue import Empty

import zmq
from jupyter_client.manager import AsyncKernelManager

__all__ = ["ForkedKernelManager", "start", "connect", "running", "warm"]

# Never a module whose import looks for a running IPython shell (there is none yet): the inline backend, for
# one, hooks itself into the shell when imported, so a kernel must import it itself (on its first figure).
PRELOAD = ("sympy", "numpy", "matplotlib.pyplot", "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.debugger",
           "derive")
_INLINE = "module://matplotlib_inline.backend_inline"  # what an IPython kernel sets before Matplotlib loads
# as nbclient starts its kernels: no history written to the user's profile
_KERNEL_ARGS = ["--HistoryManager.hist_file=:memory:"]

#: the longest folder for the kernel's IPC sockets ("<folder>/ipc-<port>" must fit a Unix socket path)
_MAX_FOLDER = 90

_server: subprocess.Popen | None = None
_ready = False
_lock = threading.RLock()


# -- the server (``python -m derive.run.kernels``) -----------------------------------------------------------------
def _become_kernel(connection_file: str, cwd: str, server: int) -> None:  # pragma: no cover - a forked child
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the server's own settings, not a kernel's
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()  # as launched kernels: Ctrl-C at the terminal is not the kernel's interrupt
    os.chdir(cwd)
    os.environ["JPY_PARENT_PID"] = str(server)
    import numpy

    from ipykernel.kernelapp import IPKernelApp

    numpy.random.seed()
    app = IPKernelApp.instance()
    app.initialize(["-f", connection_file, f"--IPKernelApp.parent_handle={server}", *_KERNEL_ARGS])
    from derive import exercises, expressions  # derive was imported before there was a shell, as in a launched kernel

    exercises.install(app.shell)
    expressions.install(app.shell)
    app.start()


def serve() -> None:  # pragma: no cover - runs as ``python -m derive.run.kernels``
    """Preload, say ``ready``, then answer each request line ``[connection_file, cwd]`` with a kernel's pid."""
    import importlib

    if sys.path[0] in ("", os.getcwd()):  # as ipykernel_launcher: the kernel puts '' back, after the standard library
        del sys.path[0]
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything printed from here on (or by a kernel) goes to stderr, never into the replies
    os.environ.setdefault("MPLBACKEND", _INLINE)
    for name in PRELOAD:
        importlib.import_module(name)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # kernels are reaped by the system as they exit
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller ends the server by closing its stdin
    server = os.getpid()
    replies.write("ready\n")
    for line in sys.stdin:
        try:
            connection_file, cwd = json.loads(line)
            pid = os.fork()
        except Exception as exc:
            replies.write(json.dumps(f"{type(exc).__name__}: {exc}") + "\n")
            continue
        if pid == 0:
            code = 1
            try:
                replies.close()
                _become_kernel(connection_file, cwd, server)
                code = 0
            except BaseException as exc:  # say why on stderr; the caller sees the kernel die
                print(f"derive kernel for {cwd}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            finally:
                os._exit(code)
        replies.write(f"{pid}\n")


# -- the client ------------------------------------------------------------------------------------------------
def warm() -> None:
    """Start the server (it imports for about a second) unless it runs; do not wait for it."""
    global _server, _ready
    with _lock:
        if _server is not None and _server.poll() is None:
            return
        if _server is not None:  # it died: let its pipes go with it
            for pipe in (_server.stdin, _server.stdout):
                with contextlib.suppress(OSError):
                    pipe.close()
        _server = subprocess.Popen([sys.executable, "-X", "frozen_modules=off", "-m", "derive.run.kernels"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        _ready = False


@atexit.register
def _stop() -> None:
    if _server is not None and _server.poll() is None:
        _server.stdin.close()
        try:
            _server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _server.kill()
        _server.stdout.close()


def _fork(connection_file: str, cwd: str) -> int:
    """The pid of a kernel forked by the server on ``connection_file`` in ``cwd``."""
    global _ready
    with _lock:  # one request and its reply at a time, whichever thread asks
        warm()
        if not _ready:
            said = _server.stdout.readline().strip()
            if said != "ready":
                raise RuntimeError(f"the kernel server did not start (it said {said or 'nothing'!r})")
            _ready = True
        _server.stdin.write(json.dumps([connection_file, cwd]) + "\n")
        reply = _server.stdout.readline().strip()
    if not reply.isdigit():
        raise RuntimeError(f"the kernel server could not fork a kernel: {json.loads(reply) if reply else 'no reply'}")
    return int(reply)


class ForkedKernelManager(AsyncKernelManager):
    """The manager nbclient talks to, for a kernel that is a forked process rather than a launched command.

    Only what a notebook run needs: whether the kernel lives, interrupting it, stopping it, cleaning up.
    """

    pid = 0

    @property
    def has_kernel(self) -> bool:
        if not self.pid:
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        return True

    async def _async_is_alive(self) -> bool:  # the name its clients call, as jupyter_client's own managers
        return self.has_kernel

    is_alive = _async_is_alive

    async def interrupt_kernel(self) -> None:
        if self.has_kernel:
            os.kill(self.pid, signal.SIGINT)

    async def shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
        if self.has_kernel:  # the kernel leads its own process group: whatever it started goes with it
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
        self.pid = 0

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart)  # connection file, sockets, the zmq context
        shutil.rmtree(os.path.dirname(self.connection_file), ignore_errors=True)

    cleanup_resources = _async_cleanup_resources


def start(cwd: str | os.PathLike) -> ForkedKernelManager:
    """Fork a fresh kernel working in ``cwd``; return its manager (then :func:`connect` to it, or use
    :func:`running`, which also stops it)."""
    folder = tempfile.mkdtemp(prefix="derive-kernel-")
    if len(folder) > _MAX_FOLDER and os.path.isdir("/tmp"):  # a socket path has at most ~107 bytes
        os.rmdir(folder)
        folder = tempfile.mkdtemp(prefix="derive-kernel-", dir="/tmp")
    km = ForkedKernelManager(transport="ipc", ip=os.path.join(folder, "ipc"))
    km.connection_file = os.path.join(folder, "kernel.json")
    km.write_connection_file()
    km.context.setsockopt(zmq.RECONNECT_IVL, 10)  # the client may connect before the kernel binds: retry often
    try:
        km.pid = _fork(km.connection_file, os.fspath(cwd))
    except Exception:
        km.context.destroy(linger=0)
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return km


async def connect(km: ForkedKernelManager, timeout: float = 60.0):
    """A client of the kernel, once it answers on its shell channel and its IOPub channel is connected.

    As ``KernelClient.wait_for_ready``, less its final 0.2 s wait for stray IOPub messages: a fresh kernel has
    none that matter (nbclient reads only the messages that answer each cell's own request).
    """
    kc = km.client()
    kc.start_channels(hb=False)  # whether the kernel lives is asked of its manager: no heartbeat thread
    deadline = time.monotonic() + timeout
    while True:
        kc.kernel_info()
        try:
            reply = await kc.get_shell_msg(timeout=1)
            if reply["msg_type"] == "kernel_info_reply":
                await kc.get_iopub_msg(timeout=0.2)
                kc.allow_stdin = False
                return kc
        except Empty:
            pass
        if not km.has_kernel or time.monotonic() > deadline:
            kc.stop_channels()
            raise RuntimeError("the kernel died before it answered" if not km.has_kernel
                               else f"the kernel did not answer in {timeout:g} s")


@contextlib.asynccontextmanager
async def running(cwd: str | os.PathLike):
    """A fresh kernel in ``cwd``, connected: ``async with running(cwd) as (manager, client)``; stopped after.

    >>> import asyncio
    >>> from derive.run import kernels
    >>> async def run(code):
    ...     async with kernels.running(".") as (km, kc):
    ...         return (await kc.execute_interactive(code, timeout=60))["content"]["status"]
    >>> asyncio.run(run("import derive; a, b = derive.real('a b')"))
    'ok'
    """
    km = start(cwd)
    kc = None
    try:
        kc = await connect(km)
        yield km, kc
    finally:
        if kc is not None:
            kc.stop_channels()
        await km.shutdown_kernel()
        await km.cleanup_resources()


if __name__ == "__main__":  # pragma: no cover
    serve()
