import pytest

from roman import from_roman, to_roman


@pytest.mark.parametrize("number, text", [(4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (90, "XC"), (400, "CD"), (900, "CM"), (1994, "MCMXCIV"), (3999, "MMMCMXCIX"), (2024, "MMXXIV")])
def test_subtractive_forms(number, text):
    assert to_roman(number) == text
    assert from_roman(text) == number


def test_round_trip():
    for number in range(1, 4000):
        assert from_roman(to_roman(number)) == number


@pytest.mark.parametrize("bad", ["IIII", "VX", "IC", "ABC", "", "MMMM", "XM", "VV", "iv"])
def test_invalid_numerals(bad):
    with pytest.raises(ValueError):
        from_roman(bad)


def test_range():
    with pytest.raises(ValueError):
        to_roman(0)
    with pytest.raises(ValueError):
        to_roman(4000)
