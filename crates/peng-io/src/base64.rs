//! Standard base64 (RFC 4648, section 4) decoding for glTF `data:` URIs.
//! Padding is optional; characters outside the alphabet are errors.

/// Decodes `text`; on error returns the byte offset of the first bad character.
pub(crate) fn decode(text: &[u8]) -> Result<Vec<u8>, usize> {
    let body_len = text.len()
        - text
            .iter()
            .rev()
            .take(2)
            .take_while(|&&c| c == b'=')
            .count();
    let body = &text[..body_len];
    // Four characters carry three bytes; a final group of 2 or 3 carries 1 or 2.
    if body.len() % 4 == 1 {
        return Err(body.len() - 1);
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for (k, &c) in body.iter().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(k),
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn rfc4648_vectors() {
        // RFC 4648, section 10.
        let cases: [(&str, &str); 7] = [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
        ];
        for (enc, dec) in cases {
            assert_eq!(decode(enc.as_bytes()).unwrap(), dec.as_bytes(), "{enc}");
            let unpadded = enc.trim_end_matches('=');
            assert_eq!(decode(unpadded.as_bytes()).unwrap(), dec.as_bytes());
        }
        assert_eq!(decode(b"/+8=").unwrap(), vec![0xff, 0xef]);
    }

    #[test]
    fn bad_input_reports_offset() {
        assert_eq!(decode(b"Zm9v*mFy"), Err(4));
        assert_eq!(decode(b"Zm9vY"), Err(4));
        assert_eq!(decode(b"Zm=v"), Err(2));
    }
}
