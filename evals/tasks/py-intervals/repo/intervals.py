"""Closed integer intervals as [start, end] lists."""


def merge(intervals: list[list[int]]) -> list[list[int]]:
    """Merges overlapping intervals."""
    out: list[list[int]] = []
    for interval in intervals:
        if out and interval[0] < out[-1][1]:
            out[-1][1] = max(out[-1][1], interval[1])
        else:
            out.append(interval)
    return out


def total_length(intervals: list[list[int]]) -> int:
    """How much of the line the intervals cover."""
    return sum(end - start for start, end in merge(intervals))
