//! The variable-length-code LZW compressor of GIF image data (GIF89a
//! specification, Appendix F) and the data sub-block framing (sections 15, 16).
//!
//! The code stream starts with `Clear = 2^min_code_size`, `End = Clear + 1`
//! follows the last code, and new strings get the codes `End + 1, End + 2, …`.
//! Codes are written with `min_code_size + 1` bits at first and packed into
//! bytes least significant bit first.
//!
//! Code width: the decoder builds its table one code behind the encoder (it
//! can only add the string `previous + first symbol of current` once it has
//! read the current code). The encoder therefore widens its codes as soon as
//! it has *assigned* the code `2^width`, the first code that no longer fits:
//! the decoder reaches the same table size, and widens, right after reading the
//! next code, just before the code that may use the new entry. After the last
//! code the decoder still adds one entry, so `End` is written at the width the
//! decoder will have then.
//!
//! Full table: codes stop at 12 bits (4096 entries). When the table is full
//! the encoder writes `Clear` and starts again from an empty table, instead
//! of the "deferred clear" the 1990 cover sheet of the specification allows,
//! which older decoders mishandle.

/// The largest code width GIF allows (Appendix F).
const MAX_WIDTH: u32 = 12;
/// The number of codes of that width.
const MAX_CODES: u16 = 1 << MAX_WIDTH;

/// Compresses colour indices, each below `2^min_code_size`, into the packed
/// GIF LZW code stream (without the sub-block framing).
///
/// `min_code_size` must be in `2..=8` (the specification's range for the
/// "LZW Minimum Code Size" byte of section 22).
pub fn compress(indices: &[u8], min_code_size: u8) -> Vec<u8> {
    debug_assert!((2..=8).contains(&min_code_size));
    let min = u32::from(min_code_size);
    let clear: u16 = 1 << min;
    let end = clear + 1;
    let mut bits = BitWriter::default();
    let mut table = StringTable::new();
    let mut width = min + 1;
    let mut next = end + 1;
    bits.put(clear, width);
    let Some((&first, rest)) = indices.split_first() else {
        bits.put(end, width);
        return bits.finish();
    };
    // `prefix` is the code of the longest string seen so far that is in the
    // table; each symbol extends it or ends it.
    let mut prefix = u16::from(first);
    for &symbol in rest {
        if let Some(code) = table.get(prefix, symbol) {
            prefix = code;
            continue;
        }
        bits.put(prefix, width);
        if next == MAX_CODES {
            bits.put(clear, width);
            table.clear();
            width = min + 1;
            next = end + 1;
        } else {
            table.insert(prefix, symbol, next);
            if u32::from(next) == 1 << width && width < MAX_WIDTH {
                width += 1;
            }
            next += 1;
        }
        prefix = u16::from(symbol);
    }
    bits.put(prefix, width);
    // The decoder adds one more entry on reading that last code (unless the
    // table is full) and widens if the table then reaches 2^width entries.
    if u32::from(next) == 1 << width && width < MAX_WIDTH {
        width += 1;
    }
    bits.put(end, width);
    bits.finish()
}

/// Writes `data` as GIF data sub-blocks (a length byte of at most 255, then
/// that many bytes; section 15) followed by the block terminator, a zero
/// length (section 16).
pub fn sub_blocks(out: &mut Vec<u8>, data: &[u8]) {
    for chunk in data.chunks(255) {
        out.push(chunk.len() as u8);
        out.extend_from_slice(chunk);
    }
    out.push(0);
}

/// Packs codes of varying width into bytes, least significant bit first.
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u32,
    n: u32,
}

impl BitWriter {
    fn put(&mut self, code: u16, width: u32) {
        debug_assert!(u32::from(code) < 1 << width);
        self.acc |= u32::from(code) << self.n;
        self.n += width;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// The LZW string table: maps (code of a string, next symbol) to the code of
/// the longer string. An open-addressing hash table with linear probing,
/// twice as many slots as the 4096 codes so probes stay short; clearing it
/// touches 32 KiB.
struct StringTable {
    /// `(prefix << 8 | symbol) + 1`, or 0 for an empty slot.
    keys: Vec<u32>,
    codes: Vec<u16>,
}

/// log2 of the slot count.
const SLOT_BITS: u32 = 13;

impl StringTable {
    fn new() -> Self {
        StringTable {
            keys: vec![0; 1 << SLOT_BITS],
            codes: vec![0; 1 << SLOT_BITS],
        }
    }

    fn clear(&mut self) {
        self.keys.fill(0);
    }

    /// The first slot to probe: Fibonacci hashing (Knuth, TAOCP vol. 3,
    /// 6.4), the top bits of the key times 2^32 / golden ratio.
    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - SLOT_BITS)) as usize
    }

    fn get(&self, prefix: u16, symbol: u8) -> Option<u16> {
        let key = (u32::from(prefix) << 8 | u32::from(symbol)) + 1;
        let mask = (1 << SLOT_BITS) - 1;
        let mut i = Self::slot(key);
        loop {
            match self.keys[i] {
                0 => return None,
                k if k == key => return Some(self.codes[i]),
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn insert(&mut self, prefix: u16, symbol: u8, code: u16) {
        let key = (u32::from(prefix) << 8 | u32::from(symbol)) + 1;
        let mask = (1 << SLOT_BITS) - 1;
        let mut i = Self::slot(key);
        while self.keys[i] != 0 {
            i = (i + 1) & mask;
        }
        self.keys[i] = key;
        self.codes[i] = code;
    }
}
