//! Generation-checked handles and the arena that hands them out.
//!
//! A handle is a slot index plus the slot's generation when the handle was
//! made; removing a value bumps the generation, so a stale handle never
//! reaches the value that reuses the slot (Box2D's ids, rapier's arenas).

/// A collider of a [`World`](super::World): slot index plus generation,
/// small and passed by value. Ordered by index, then generation (event lists
/// are sorted in this order).
///
/// Both parts live in one word, the index in the high half, so that
/// comparing handles (the world's pair lists are sorted by them) is one
/// integer comparison rather than two with a branch between.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ColliderHandle {
    bits: u64,
}

impl core::fmt::Debug for ColliderHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ColliderHandle")
            .field("index", &self.index())
            .field("generation", &self.generation())
            .finish()
    }
}

impl ColliderHandle {
    /// The slot index (dense; reused after removal with a new generation).
    #[inline]
    pub fn index(self) -> u32 {
        (self.bits >> 32) as u32
    }

    /// The generation of the slot when this handle was made.
    #[inline]
    pub fn generation(self) -> u32 {
        self.bits as u32
    }

    /// A handle from its parts (for tests and serialisation; a made-up
    /// handle is simply stale unless it names a live collider).
    #[inline]
    pub fn from_parts(index: u32, generation: u32) -> Self {
        ColliderHandle {
            bits: (u64::from(index) << 32) | u64::from(generation),
        }
    }
}

/// One slot of an [`Arena`].
#[derive(Debug, Clone)]
struct Slot<T> {
    value: Option<T>,
    generation: u32,
}

/// The world's collider storage: values by generation-checked handle; freed
/// slots are reused (lowest index first is not promised; the free list is LIFO).
#[derive(Debug, Clone)]
pub(crate) struct Arena<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    len: usize,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Arena<T> {
    /// Stores `value` and returns its handle.
    pub(crate) fn insert(&mut self, value: T) -> ColliderHandle {
        self.len += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            ColliderHandle::from_parts(index, slot.generation)
        } else {
            let index = self.slots.len() as u32;
            self.slots.push(Slot {
                value: Some(value),
                generation: 0,
            });
            ColliderHandle::from_parts(index, 0)
        }
    }

    /// Removes and returns the value of a live handle (`None` when stale).
    pub(crate) fn remove(&mut self, h: ColliderHandle) -> Option<T> {
        let slot = self.slots.get_mut(h.index() as usize)?;
        if slot.generation != h.generation() || slot.value.is_none() {
            return None;
        }
        let value = slot.value.take();
        // Wrapping: after 2^32 reuses of one slot a very old handle could
        // match again; that takes billions of removals of one slot.
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(h.index());
        self.len -= 1;
        value
    }

    /// The value of a live handle.
    #[inline]
    pub(crate) fn get(&self, h: ColliderHandle) -> Option<&T> {
        let slot = self.slots.get(h.index() as usize)?;
        if slot.generation == h.generation() {
            slot.value.as_ref()
        } else {
            None
        }
    }

    /// The value of a live handle, mutably.
    #[inline]
    pub(crate) fn get_mut(&mut self, h: ColliderHandle) -> Option<&mut T> {
        let slot = self.slots.get_mut(h.index() as usize)?;
        if slot.generation == h.generation() {
            slot.value.as_mut()
        } else {
            None
        }
    }

    /// Whether the handle names a live value.
    #[inline]
    pub(crate) fn contains(&self, h: ColliderHandle) -> bool {
        self.get(h).is_some()
    }

    /// The live handle of slot `index`, if the slot holds a value.
    #[inline]
    pub(crate) fn handle_at(&self, index: u32) -> Option<ColliderHandle> {
        let slot = self.slots.get(index as usize)?;
        slot.value
            .as_ref()
            .map(|_| ColliderHandle::from_parts(index, slot.generation))
    }

    /// Number of live values.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no live value.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The live values with their handles, in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (ColliderHandle, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.value
                .as_ref()
                .map(|v| (ColliderHandle::from_parts(i as u32, s.generation), v))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_handles_never_reach_the_value_that_reuses_the_slot() {
        let mut a = Arena::default();
        let h1 = a.insert("one");
        let h2 = a.insert("two");
        assert_eq!(a.remove(h1), Some("one"));
        assert_eq!(a.get(h1), None);
        assert_eq!(a.remove(h1), None);
        let h3 = a.insert("three");
        assert_eq!(h3.index(), h1.index());
        assert_ne!(h3, h1);
        assert_eq!(a.get(h1), None);
        assert_eq!(a.get(h3), Some(&"three"));
        assert_eq!(a.get(h2), Some(&"two"));
        assert_eq!(a.len(), 2);
        assert_eq!(a.get(ColliderHandle::from_parts(7, 0)), None);
        let all: Vec<_> = a.iter().map(|(h, v)| (h, *v)).collect();
        assert_eq!(all, vec![(h3, "three"), (h2, "two")]);
    }
}
