"""``python -m pbem.ratings rebuild``: the ratings again from the records.

    python -m pbem.ratings rebuild                 # the server's (REDIS_URL): stored again, printed
    python -m pbem.ratings rebuild FILE.jsonl ...  # offline, from record files (GET /games/{id}/record)

Both print each game type's table as JSON; the offline one stores nothing,
so anyone holding the records can check the server's table.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import parse_record, rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.ratings")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("rebuild", help="recompute the ratings from finished games' records")
    p.add_argument("records", nargs="*", help="record files (JSON lines): offline; none: the server's, stored")
    args = parser.parse_args(argv)
    if args.records:
        tables = rate([parse_record(Path(f).read_text()) for f in args.records])
        out = {name: t.as_dict() for name, t in sorted(tables.items())}
    else:
        from ..service import Service
        from ..settings.config import settings
        from ..store import Store
        from ..store.connections import connect
        from .projection import rebuild

        out = rebuild(Service(Store(connect(settings().redis_url))))
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
