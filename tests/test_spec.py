"""api_spec/openapi.json is generated from the code (`make spec`)."""
from pathlib import Path

from pbem.api.spec import generate

SPEC = Path(__file__).resolve().parent.parent / "api_spec" / "openapi.json"


def test_committed_spec_matches_the_code():
    assert SPEC.read_text() == generate(), "api_spec/openapi.json is stale: run `make spec`"


def test_spec_documents_the_error_format_and_every_route():
    import json

    spec = json.loads(generate())
    error = spec["components"]["schemas"]["Error"]
    assert error["properties"]["error"]["$ref"].endswith("/ErrorBody")
    assert {"code", "message", "status"} <= set(spec["components"]["schemas"]["ErrorBody"]["required"])
    for path in ("/games", "/games/{game_id}", "/games/{game_id}/moves", "/games/{game_id}/moves/{move_id}",
                 "/games/{game_id}/events", "/games/{game_id}/states/{version}", "/games/{game_id}/record",
                 "/games/{game_id}/seats/{seat}", "/games/{game_id}/legal-moves"):
        assert path in spec["paths"], path
