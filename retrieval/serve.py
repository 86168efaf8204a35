"""A knowledge base served over HTTP in ``retrieval.http_source``'s protocol.

    python -m retrieval.serve --db kb.db --port 8300
    # reward config: factuality: {source: "retrieval.http_source:HttpSource", source_options: {url: "http://HOST:8300"}}

One KB (and its embedding model) for every training node, instead of a copy and a model per node. Searches run
on worker threads (SQLite, FAISS and the encoder release the GIL).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Callable

from aiohttp import web

from knowrl_io.args import Parser
from knowrl_io.http_serve import serve_forever
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.once import Once


def _passage(p: Any) -> dict[str, Any]:
    return {"id": p.id, "title": p.title, "text": p.text}


def handlers(kb: Any) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The protocol's calls over a ``KnowledgeBase``: JSON in, JSON out."""

    def search(body: dict[str, Any]) -> dict[str, Any]:
        found = kb.search(
            str(body.get("query", "")), body.get("titles"), int(body.get("k", 5)), body.get("mode", "hybrid")
        )
        hits = [{**_passage(h.passage), "score": h.score} for h in found.hits]
        return {"hits": hits, "mode": found.mode, "scope": found.scope}

    def title_passages(body: dict[str, Any]) -> dict[str, Any]:
        found = kb.title_passages(body.get("titles"), int(body.get("limit", 10)))
        return {"passages": None if found is None else [_passage(p) for p in found]}

    def title_passage_ids(body: dict[str, Any]) -> dict[str, Any]:
        ids, found, missing = kb.title_passage_ids(list(body.get("titles") or []))
        return {"ids": ids, "found": found, "missing": missing}

    return {
        "info": lambda body: {"version": kb.content_version, "modes": list(kb.modes)},  # its text too (pass 9)
        "search": search,
        "title_passages": title_passages,
        "title_passage_ids": title_passage_ids,
        "passages": lambda body: {"passages": [_passage(p) for p in kb.get_passages(body.get("ids") or []).values()]},
    }


def make_app(kb: Any) -> web.Application:
    app = web.Application()
    for name, handle in handlers(kb).items():

        async def route(request: web.Request, handle: Callable = handle) -> web.Response:
            try:
                body = await request.json()
                if not isinstance(body, dict):
                    raise ValueError("the body must be a JSON object")
                return web.json_response(await asyncio.to_thread(handle, body))
            except (ValueError, TypeError) as exc:  # bad JSON, a bad field, an unknown search mode
                return web.json_response({"error": str(exc)}, status=400)

        app.router.add_post(f"/{name}", route)
    return app


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m retrieval.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, action=Once, required=True, help="the knowledge base file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8300, help="0: any free port (printed)")
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} is not a port (0-65535)")
    if not args.db.is_file():
        parser.error(f"knowledge base not found (or not a file): {args.db}")
    from retrieval.kb import KnowledgeBase, check_model

    try:
        kb = KnowledgeBase(args.db)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if kb.manifest is not None:  # its dense searches would find the old model's neighbours for new query vectors
        try:
            check_model(kb.manifest, kb.embedder.name, kb.db_path, kb.embedder)
        except ValueError as exc:
            kb.close()
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        asyncio.run(serve_forever(make_app(kb), args.host, args.port, "knowledge base served on {url}"))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        kb.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
