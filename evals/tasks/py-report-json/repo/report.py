"""Summaries of an amounts file (CSV with a header and an `amount` column)."""
import csv
from typing import Optional, TypedDict


class Summary(TypedDict):
    count: int
    total: float
    mean: Optional[float]


def summarize(path: str) -> Summary:
    with open(path, newline="", encoding="utf-8") as f:
        amounts = [float(row["amount"]) for row in csv.DictReader(f)]
    total = sum(amounts)
    return {"count": len(amounts), "total": total, "mean": total / len(amounts) if amounts else None}


def render_text(summary: Summary) -> str:
    mean = "n/a" if summary["mean"] is None else f"{summary['mean']:.2f}"
    return f"{summary['count']} rows, total {summary['total']:.2f}, mean {mean}"
