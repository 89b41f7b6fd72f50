"""Squares, the slow way (kept to show off the fixtures)."""


def square(n: int) -> int:
    total = 0
    for _ in range(abs(n)):
        total += abs(n)
    return total
