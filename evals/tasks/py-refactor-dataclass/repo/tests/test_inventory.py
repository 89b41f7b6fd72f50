from inventory import add_book, available, lend, new_inventory, titles_by


def make():
    inv = new_inventory()
    add_book(inv, "Dune", "Herbert", 1965, 2)
    add_book(inv, "Children of Dune", "Herbert", 1976)
    add_book(inv, "Emma", "Austen", 1815)
    return inv


def test_lending():
    inv = make()
    assert lend(inv, "Dune") and lend(inv, "Dune")
    assert not lend(inv, "Dune")
    assert available(inv, "Dune") == 0
    assert not lend(inv, "Nothing")


def test_adding_copies_and_titles():
    inv = make()
    add_book(inv, "Emma", "Austen", 1815, 3)
    assert available(inv, "Emma") == 4
    assert titles_by(inv, "Herbert") == ["Dune", "Children of Dune"]
    assert titles_by(inv, "Nobody") == []
