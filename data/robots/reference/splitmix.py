"""SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", 2014): the generator the reference scripts draw configurations
with, and that peng-robot's tests (`tests/common/mod.rs`) regenerate bit for
bit."""

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        """Uniform in [0, 1) from the top 53 bits."""
        return (self.next() >> 11) * 2.0**-53
