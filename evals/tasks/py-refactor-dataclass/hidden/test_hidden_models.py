import dataclasses

import inventory
from models import Book


def test_book_is_a_dataclass_with_the_fields():
    assert dataclasses.is_dataclass(Book)
    assert [f.name for f in dataclasses.fields(Book)] == ["title", "author", "year", "copies"]


def test_inventory_holds_books():
    inv = inventory.new_inventory()
    inventory.add_book(inv, "Emma", "Austen", 1815, 2)
    inventory.add_book(inv, "Emma", "Austen", 1815)
    book = inv["Emma"]
    assert isinstance(book, Book)
    assert book == Book("Emma", "Austen", 1815, 3)
    assert inventory.lend(inv, "Emma")
    assert inv["Emma"].copies == 2
    assert all(not isinstance(v, dict) for v in inv.values())
