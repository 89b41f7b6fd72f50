import subprocess
import sys

from report import render_text, summarize


def test_text_summary():
    assert render_text(summarize("sample.csv")) == "3 rows, total 119.75, mean 39.92"


def test_cli_prints_text():
    out = subprocess.run([sys.executable, "cli.py", "sample.csv"], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "3 rows, total 119.75, mean 39.92"
