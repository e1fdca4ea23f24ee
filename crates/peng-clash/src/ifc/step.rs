//! The STEP envelope of an IFC file: the opening `ISO-10303-21;`, the schema
//! named in the header, and the closing `END-ISO-10303-21;` whose absence
//! shows a file cut short.

use crate::error::ClashError;

/// What the envelope says about a file that looks like IFC.
pub(crate) struct Envelope {
    /// The first `FILE_SCHEMA` label, if the header has one.
    pub schema: Option<String>,
    /// Whether the file ends before its `END-ISO-10303-21;`.
    pub truncated: bool,
}

const MAGIC: &[u8] = b"ISO-10303-21";
const END: &[u8] = b"END-ISO-10303-21;";

/// Checks that `content` is a STEP physical file; errors name the file.
pub(crate) fn envelope(file: &str, content: &[u8]) -> Result<Envelope, ClashError> {
    let fail = |what: &str| ClashError::File {
        file: file.to_string(),
        what: what.to_string(),
    };
    let body = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
    let body = body.trim_ascii();
    if body.is_empty() {
        return Err(fail("the file is empty"));
    }
    if !body.starts_with(MAGIC) {
        return Err(fail(
            "not an IFC file: it does not start with ISO-10303-21 (a STEP physical file)",
        ));
    }
    Ok(Envelope {
        schema: ifc_lite_core::declared_schema_bounded(content),
        truncated: !body.ends_with(END),
    })
}

/// The problem reported for a truncated file: `last` is the last complete
/// record read, if any.
pub(crate) fn truncated_problem(file: &str, len: usize, last: Option<u32>) -> ClashError {
    let read = match last {
        Some(id) => format!("the last complete record is #{id}"),
        None => "no record was read".to_string(),
    };
    ClashError::File {
        file: file.to_string(),
        what: format!(
            "the file is truncated: it ends after {len} bytes without END-ISO-10303-21; \
             {read}, and the elements after the cut are missing"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_checks() {
        let e = envelope("a.ifc", b"").err().unwrap();
        assert_eq!(e.to_string(), "a.ifc: the file is empty");
        let e = envelope("b.ifc", b"solid cube\nendsolid").err().unwrap();
        assert!(e.to_string().starts_with("b.ifc: not an IFC file"), "{e}");
        let ok = b"ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n";
        let env = envelope("c.ifc", ok).unwrap();
        assert_eq!(env.schema.as_deref(), Some("IFC4"));
        assert!(!env.truncated);
        let env = envelope("c.ifc", &ok[..60]).unwrap();
        assert!(env.truncated);
    }
}
