from roman import from_roman, to_roman


def test_additive_forms():
    assert to_roman(3) == "III"
    assert to_roman(1666) == "MDCLXVI"
    assert from_roman("XV") == 15
    assert from_roman("MDCLXVI") == 1666
