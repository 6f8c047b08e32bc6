"""A tiny stock ledger, with two mistakes for strobe to find."""


class Inventory:
    def __init__(self):
        self._stock = {}

    def add(self, item, count):
        self._stock[item] = self._stock.get(item, 0) + count

    def remove(self, item, count):
        # Bug: removing more than is in stock goes negative instead of refusing.
        self._stock[item] = self._stock.get(item, 0) - count

    def count(self, item):
        return self._stock.get(item, 0)

    def share(self, item):
        """The item's share of all stock, as a fraction."""
        total = sum(self._stock.values())
        return self._stock.get(item, 0) / total
