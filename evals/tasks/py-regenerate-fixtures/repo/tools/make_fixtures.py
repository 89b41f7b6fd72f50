"""Writes tests/data/squares.json from tools/fixtures.json: python3 tools/make_fixtures.py [--out FILE]."""
import argparse
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "squares.json"))
    args = parser.parse_args()
    settings_text = (ROOT / "tools" / "fixtures.json").read_text(encoding="utf-8")
    settings = json.loads(settings_text)
    data = {
        "generated_from": hashlib.sha256(settings_text.encode()).hexdigest()[:16],
        "squares": {str(n): n * n for n in range(settings["first"], settings["last"] + 1)},
    }
    Path(args.out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
