//! strobe's demo: a tiny stack with one bug.

pub struct Stack {
    items: Vec<i32>,
}

impl Stack {
    pub fn new() -> Self {
        Stack { items: Vec::new() }
    }

    pub fn push(&mut self, x: i32) {
        self.items.push(x);
    }

    /// The bug: returns the bottom of the stack, not the top.
    pub fn peek(&self) -> i32 {
        self.items[0]
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_counts() {
        let mut s = Stack::new();
        s.push(1);
        s.push(2);
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn peek_sees_the_top() {
        let mut s = Stack::new();
        s.push(1);
        s.push(2);
        assert_eq!(s.peek(), 2);
    }

    #[test]
    fn peek_on_empty() {
        let s = Stack::new();
        s.peek();
    }
}
