from wordfreq import top_words


def test_counts_plain_words():
    assert top_words("a b a", 1) == [("a", 2)]
