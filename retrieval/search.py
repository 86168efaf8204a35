"""Search a knowledge base: ``python -m retrieval.search --db KB.db --query TEXT``."""

from __future__ import annotations

import json
import sys
import textwrap

from knowrl_io.args import Parser
from knowrl_io.logs import add_verbosity, setup_logging
from knowrl_io.paths import demo_kb_path
from retrieval.dense import IndexMismatchError
from retrieval.kb import DENSE_MODES, FUSIONS, MODES, KnowledgeBase, check_model


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m retrieval.search", description=__doc__)
    parser.add_argument("--db", default=None, help="KB file (default: the demo KB in the user cache)")
    parser.add_argument("--query", required=True)
    parser.add_argument("--title", action="append", default=[], help="restrict to this document (repeatable)")
    parser.add_argument("--mode", choices=MODES, default="hybrid")
    parser.add_argument("--fusion", choices=FUSIONS, default="convex")
    parser.add_argument("--k", type=int, default=5, help="passages to return (at least 1)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = add_verbosity(parser).parse_args(argv)
    setup_logging(args.log_level)
    if args.k < 1:  # --k 0 and --k -2 printed "no passages found", exit 0 (hostile pass 56)
        parser.error(f"--k must be at least 1, got {args.k}")
    db = args.db or str(demo_kb_path())
    try:
        kb = KnowledgeBase(db, fusion_rule=args.fusion)
    except (FileNotFoundError, ValueError, IndexMismatchError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.mode not in kb.modes:
        kb.close()
        print(
            f"error: {db} has no dense index, so no {args.mode!r} search: use --mode bm25, or build the index: "
            f"python -m retrieval.build --from-db {db}",
            file=sys.stderr,
        )
        return 2
    with kb:
        if args.mode in DENSE_MODES and kb.manifest is not None:  # a model changed in place: wrong neighbours, exit 0
            try:
                check_model(kb.manifest, kb.embedder.name, kb.db_path, kb.embedder)
            except ValueError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
        result = kb.search(args.query, titles=args.title, k=args.k, mode=args.mode)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return 0
    if result.titles_missing:
        print(f"titles not in the KB (searched {result.scope}): {', '.join(result.titles_missing)}")
    for rank, hit in enumerate(result.hits, 1):
        ranks = ", ".join(f"{k} #{v}" if v else f"{k} -" for k, v in hit.ranks.items())
        print(f"{rank}. [{hit.passage.id}] {hit.passage.title}  score={hit.score:.4f} ({ranks})")
        print(textwrap.indent(textwrap.shorten(hit.passage.text, 300), "   "))
    if not result.hits:
        print("no passages found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
