// A bounded queue, with two mistakes for strobe to find.
export class Queue {
  constructor(capacity) {
    this.capacity = capacity;
    this.items = [];
  }

  push(item) {
    // Bug: a full queue should refuse the item.
    this.items.push(item);
  }

  pop() {
    return this.items.shift();
  }

  peek() {
    // Bug: an empty queue has no first item to read.
    return this.items[0].value;
  }

  get size() {
    return this.items.length;
  }
}
