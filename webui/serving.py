"""Serving the dashboard with waitress, and the console banner (URL, PIN, QR code).

>>> lan_url("0.0.0.0", 8000).startswith("http://")
True
"""

from __future__ import annotations

import socket
import threading
from typing import Any

import segno
from flask import Flask


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def lan_url(host: str, port: int) -> str:
    """The address phones should open for a server bound to ``host``."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}"


def banner(app: Flask, url: str) -> str:
    """What the host's console shows: the address, the PIN and a QR code of the join link."""
    join = f"{url}/join?pin={app.config['PIN']}"
    qr = segno.make(join, error="m")
    lines = [f"rummyref dashboard: {url}", f"table PIN: {app.config['PIN']}", "scan to join (the link carries the PIN):"]
    return "\n".join(lines) + "\n" + _terminal_qr(qr)


def _terminal_qr(qr: segno.QRCode) -> str:
    import io

    out = io.StringIO()
    qr.terminal(out=out, compact=True)
    return out.getvalue()


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = 32, **waitress_options: Any) -> None:
    """Serve with waitress until interrupted. Each watching phone holds one thread for its live stream."""
    import waitress

    app.config["PUBLIC_URL"] = app.config.get("PUBLIC_URL") or lan_url(host, port)
    waitress.serve(app, host=host, port=port, threads=threads, **waitress_options)


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 32):
    """A waitress server, not yet running: call ``.run()`` (e.g. in a thread) and ``.close()``.

    ``port=0`` picks a free port; ``server.effective_port`` tells which.
    """
    from waitress.server import create_server

    return create_server(app, host=host, port=port, threads=threads)


def stop_server(server, thread: threading.Thread, timeout: float = 5.0) -> None:
    """Stop a server from :func:`make_server` whose ``run()`` loop is in ``thread``.

    The sockets are closed by the server's own loop (through its trigger), so the loop
    ends on an empty socket map instead of failing in ``select()`` on a descriptor
    another thread closed under it.
    """
    from waitress import wasyncore

    server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    thread.join(timeout)
    server.task_dispatcher.shutdown()
