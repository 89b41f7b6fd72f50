"""A small library inventory: title → book."""


def new_inventory() -> dict:
    return {}


def add_book(inventory: dict, title: str, author: str, year: int, copies: int = 1) -> None:
    if title in inventory:
        inventory[title]["copies"] += copies
    else:
        inventory[title] = {"title": title, "author": author, "year": year, "copies": copies}


def lend(inventory: dict, title: str) -> bool:
    """Lends one copy; False when none is left (or the title is unknown)."""
    book = inventory.get(title)
    if book is None or book["copies"] == 0:
        return False
    book["copies"] -= 1
    return True


def available(inventory: dict, title: str) -> int:
    book = inventory.get(title)
    return 0 if book is None else book["copies"]


def titles_by(inventory: dict, author: str) -> list[str]:
    """Titles by author, oldest first."""
    books = [b for b in inventory.values() if b["author"] == author]
    return [b["title"] for b in sorted(books, key=lambda b: (b["year"], b["title"]))]
