//! Small encoders the reports need: base64 (pictures inside HTML), CRC-32 and
//! a stored (uncompressed) ZIP archive (BCF files).

/// Standard base64 with padding (RFC 4648 §4).
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as ZIP uses it.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A ZIP archive of stored entries (PKWARE APPNOTE 6.3: local headers, data,
/// central directory, end record), with a fixed timestamp so the same input
/// gives the same bytes. Names are UTF-8 (flag bit 11).
#[derive(Debug, Default)]
pub(crate) struct Zip {
    out: Vec<u8>,
    central: Vec<u8>,
    count: u16,
}

impl Zip {
    /// Adds a file.
    pub fn add(&mut self, name: &str, data: &[u8]) {
        let offset = self.out.len() as u32;
        let crc = crc32(data);
        let (size, name_len) = (data.len() as u32, name.len() as u16);
        // 1980-01-01 00:00 in MS-DOS date/time.
        let (time, date) = (0u16, (1 << 5) | 1);
        let mut local = Vec::new();
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        for v in [20u16, 1 << 11, 0, time, date] {
            local.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            local.extend_from_slice(&v.to_le_bytes());
        }
        local.extend_from_slice(&name_len.to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes());
        local.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(&local);
        self.out.extend_from_slice(data);

        let c = &mut self.central;
        c.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        for v in [20u16, 20, 1 << 11, 0, time, date] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        for v in [name_len, 0, 0, 0, 0] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        c.extend_from_slice(&0u32.to_le_bytes());
        c.extend_from_slice(&offset.to_le_bytes());
        c.extend_from_slice(name.as_bytes());
        self.count += 1;
    }

    /// The archive's bytes.
    pub fn finish(mut self) -> Vec<u8> {
        let start = self.out.len() as u32;
        let size = self.central.len() as u32;
        self.out.extend_from_slice(&self.central);
        self.out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        for v in [0u16, 0, self.count, self.count] {
            self.out.extend_from_slice(&v.to_le_bytes());
        }
        self.out.extend_from_slice(&size.to_le_bytes());
        self.out.extend_from_slice(&start.to_le_bytes());
        self.out.extend_from_slice(&0u16.to_le_bytes());
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc4648_vectors() {
        // RFC 4648 §10.
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn crc32_check_value() {
        // The CRC catalogue's check value for CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    /// Python's zipfile reads the archive back (when Python is there).
    #[test]
    fn zip_reads_back_with_python() {
        let mut z = Zip::default();
        z.add("bcf.version", b"<Version/>");
        z.add("topic/snapshot.png", &[0, 1, 2, 255]);
        let bytes = z.finish();
        let path = std::env::temp_dir().join(format!("peng-zip-test-{}.zip", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let script = "import sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(sorted((i.filename,len(z.read(i))) for i in z.infolist()))";
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .output();
        std::fs::remove_file(&path).ok();
        let out = out.expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "[('bcf.version', 10), ('topic/snapshot.png', 4)]"
        );
    }
}
