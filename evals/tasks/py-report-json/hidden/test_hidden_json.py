import json
import subprocess
import sys

import report


def run(*args):
    return subprocess.run([sys.executable, "cli.py", *args], capture_output=True, text=True, check=True).stdout


def test_cli_json():
    assert json.loads(run("--json", "sample.csv")) == {"count": 3, "total": 119.75, "mean": 39.92}
    assert json.loads(run("sample.csv", "--json")) == {"count": 3, "total": 119.75, "mean": 39.92}


def test_render_json_of_no_rows(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("date,amount\n", encoding="utf-8")
    assert json.loads(report.render_json(report.summarize(str(empty)))) == {"count": 0, "total": 0, "mean": None}
    assert json.loads(run("--json", str(empty))) == {"count": 0, "total": 0, "mean": None}


def test_text_stays_the_default():
    assert run("sample.csv").strip() == "3 rows, total 119.75, mean 39.92"
