import pytest

from inventory import Inventory


def test_add_counts_items():
    inv = Inventory()
    inv.add("apple", 3)
    inv.add("apple", 2)
    assert inv.count("apple") == 5


def test_remove_refuses_more_than_stock():
    inv = Inventory()
    inv.add("pear", 1)
    with pytest.raises(ValueError):
        inv.remove("pear", 2)


def test_share_of_empty_inventory():
    inv = Inventory()
    assert inv.share("plum") == 0
