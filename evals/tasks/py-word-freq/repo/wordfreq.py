"""Word frequencies of a text."""
from collections import Counter


def top_words(text: str, n: int = 10) -> list[tuple[str, int]]:
    """The n most frequent words of text as (word, count), most frequent first."""
    counts = Counter(text.split(" "))
    return counts.most_common(n)
