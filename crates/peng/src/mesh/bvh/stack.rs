//! A traversal stack that lives on the call stack and spills to the heap only
//! when a tree is deeper than the fixed part (which the builder avoids).

/// Fixed part of the stack. The builder caps the depth of the tree well below it.
pub(super) const STACK: usize = 128;

/// A LIFO stack: `STACK` entries inline, the rest in a `Vec` that is allocated
/// only on overflow.
pub(super) struct Stack<T: Copy> {
    inline: [T; STACK],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy> Stack<T> {
    /// An empty stack; `fill` only initialises the inline array.
    #[inline]
    pub(super) fn new(fill: T) -> Self {
        Stack {
            inline: [fill; STACK],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn push(&mut self, x: T) {
        if self.len < STACK {
            self.inline[self.len] = x;
            self.len += 1;
        } else {
            self.spill.push(x);
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<T> {
        // The spill holds the newest entries: it is only used once the inline
        // part is full, and it empties before the inline part shrinks.
        if let Some(x) = self.spill.pop() {
            return Some(x);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifo_across_the_spill() {
        let mut s = Stack::new(0usize);
        for i in 0..STACK + 10 {
            s.push(i);
        }
        for i in (0..STACK + 10).rev() {
            assert_eq!(s.pop(), Some(i));
        }
        assert_eq!(s.pop(), None);
    }
}
