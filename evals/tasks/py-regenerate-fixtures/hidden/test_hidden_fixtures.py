import json
from pathlib import Path


def test_fixtures_cover_one_to_twenty():
    data = json.loads(Path("tests/data/squares.json").read_text(encoding="utf-8"))
    assert sorted(int(n) for n in data["squares"]) == list(range(1, 21))
    assert data["squares"]["20"] == 400
