"""Serve an aiohttp application until interrupted, announcing the port it got (``--port 0``: any free one)."""

from __future__ import annotations

import asyncio

from aiohttp import web


async def serve_forever(app: web.Application, host: str, port: int, announce: str) -> None:
    """``announce`` is printed with ``{url}`` filled in (``http://host:port``) once the socket listens."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # port 0: the one it got
    print(announce.format(url=f"http://{host}:{bound}"), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
