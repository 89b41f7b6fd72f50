from intervals import merge


def test_sorted_overlaps():
    assert merge([[1, 4], [2, 6], [8, 9]]) == [[1, 6], [8, 9]]
