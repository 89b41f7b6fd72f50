from wordfreq import top_words


def test_case_and_punctuation():
    assert top_words("The cat. the CAT, the dog!", 2) == [("the", 3), ("cat", 2)]


def test_apostrophes_inside_words_stay():
    assert top_words("Don't stop; don't. 'Quoted' quoted", 5) == [("don't", 2), ("quoted", 2), ("stop", 1)]


def test_ties_are_alphabetical():
    assert top_words("pear apple fig apple fig pear", 3) == [("apple", 2), ("fig", 2), ("pear", 2)]


def test_whitespace_of_any_kind_and_n():
    assert top_words("one\ttwo\n\ntwo   three three three", 10) == [("three", 3), ("two", 2), ("one", 1)]
    assert top_words("", 3) == []
    assert top_words("-- ... !!", 3) == []
