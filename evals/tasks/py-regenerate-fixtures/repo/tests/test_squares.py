import json
from pathlib import Path

from squares import square

DATA = json.loads((Path(__file__).parent / "data" / "squares.json").read_text(encoding="utf-8"))


def test_square_matches_the_fixtures():
    for n, expected in DATA["squares"].items():
        assert square(int(n)) == expected
