import copy

from intervals import merge, total_length


def test_touching_intervals_merge():
    assert merge([[1, 3], [3, 5]]) == [[1, 5]]


def test_any_order():
    assert merge([[8, 9], [1, 4], [2, 6]]) == [[1, 6], [8, 9]]
    assert merge([[5, 7], [1, 2], [2, 5]]) == [[1, 7]]
    assert merge([[10, 12], [0, 1]]) == [[0, 1], [10, 12]]


def test_contained_and_single():
    assert merge([[1, 10], [2, 3], [4, 5]]) == [[1, 10]]
    assert merge([[4, 4]]) == [[4, 4]]
    assert merge([]) == []


def test_argument_unchanged():
    given = [[5, 6], [1, 3], [2, 4]]
    before = copy.deepcopy(given)
    merged = merge(given)
    assert given == before
    merged[0][1] = 99
    assert given == before


def test_total_length_counts_overlaps_once():
    assert total_length([[3, 5], [1, 4]]) == 4
