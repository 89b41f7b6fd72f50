"""python3 cli.py FILE.csv — prints a summary of the file's amount column."""
import argparse

from report import render_text, summarize


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Summarize an amounts CSV file.")
    parser.add_argument("file")
    args = parser.parse_args(argv)
    print(render_text(summarize(args.file)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
