//! Swept solids along their whole directrix, as IfcOpenShell sweeps them.
//!
//! `IfcSweptDiskSolid`, `IfcSurfaceCurveSweptAreaSolid` and their kin carry
//! a `StartParam` and an `EndParam` on their directrix. Exporters write
//! them wrongly so often (for a polyline of several segments, `0.` and `1.`,
//! which by the curve's parametrisation is the first segment only) that
//! IfcOpenShell ignores them unless the directrix is periodic (a circle or
//! an ellipse, where they pick an arc), and sweeps the whole curve. ifc-lite
//! honours them. To mesh as IfcOpenShell does, and as the model's authors
//! meant, the two parameters of such a solid are blanked (`$`, "the whole
//! curve") in a copy of the file before it is read.

use ifc_lite_core::EntityScanner;
use std::collections::{HashMap, HashSet};

/// The swept solids with a directrix: keyword, and the argument positions
/// of the directrix and of StartParam (EndParam follows it).
const SWEEPS: [(&str, usize, usize); 5] = [
    ("IFCSWEPTDISKSOLID", 0, 3),
    ("IFCSWEPTDISKSOLIDPOLYGONAL", 0, 3),
    ("IFCSURFACECURVESWEPTAREASOLID", 2, 3),
    ("IFCFIXEDREFERENCESWEPTAREASOLID", 2, 3),
    ("IFCDIRECTRIXCURVESWEPTAREASOLID", 2, 3),
];

/// Curves whose parameters mean what they say (periodic ones).
const PERIODIC: [&str; 2] = ["IFCCIRCLE", "IFCELLIPSE"];

/// A copy of `content` with the parameters of every swept solid on a
/// non-periodic directrix blanked, and how many solids that changed; `None`
/// when there is none to change (the content is then read as it is).
pub(crate) fn whole_directrices(content: &[u8]) -> Option<(Vec<u8>, usize)> {
    if !contains_ignore_case(content, b"SWEPT") {
        return None;
    }
    // The sweeps with parameters: record span, directrix, parameter spans.
    let mut sweeps = Vec::new();
    let mut scanner = EntityScanner::new(content);
    while let Some((_, keyword, start, end)) = scanner.next_entity() {
        let Some(&(_, directrix, param)) =
            SWEEPS.iter().find(|s| s.0.eq_ignore_ascii_case(keyword))
        else {
            continue;
        };
        let args = arguments(&content[start..end]);
        let (Some(d), Some(s), Some(e)) =
            (args.get(directrix), args.get(param), args.get(param + 1))
        else {
            continue;
        };
        let text = |(a, b): (usize, usize)| &content[start + a..start + b];
        let blank = |span| {
            text(span)
                .iter()
                .all(|c| c.is_ascii_whitespace() || *c == b'$')
        };
        let Some(curve) = reference(text(*d)) else {
            continue;
        };
        if blank(*s) && blank(*e) {
            continue;
        }
        sweeps.push((start, curve, (start + s.0, start + e.1)));
    }
    if sweeps.is_empty() {
        return None;
    }
    // The directrices' keywords.
    let wanted: HashSet<u32> = sweeps.iter().map(|s| s.1).collect();
    let mut kinds: HashMap<u32, bool> = HashMap::new();
    let mut scanner = EntityScanner::new(content);
    while let Some((id, keyword, _, _)) = scanner.next_entity() {
        if wanted.contains(&id) {
            kinds
                .entry(id)
                .or_insert_with(|| PERIODIC.iter().any(|p| p.eq_ignore_ascii_case(keyword)));
        }
    }
    let mut out = Vec::with_capacity(content.len());
    let (mut from, mut changed) = (0, 0);
    for (_, curve, (a, b)) in sweeps {
        if kinds.get(&curve).copied().unwrap_or(true) {
            continue;
        }
        out.extend_from_slice(&content[from..a]);
        out.extend_from_slice(b"$,$");
        from = b;
        changed += 1;
    }
    if changed == 0 {
        return None;
    }
    out.extend_from_slice(&content[from..]);
    Some((out, changed))
}

/// Whether `needle` (upper case) occurs in `hay`, in any case.
fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// The instance number of a reference argument (`#12`).
fn reference(arg: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(arg).ok()?.trim();
    text.strip_prefix('#')?.trim().parse().ok()
}

/// The byte spans (within `record`) of a record's top-level arguments: the
/// comma-separated items inside its outermost parentheses, skipping nested
/// lists and quoted strings (`'it''s'`).
fn arguments(record: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let Some(open) = record.iter().position(|&c| c == b'(') else {
        return out;
    };
    let (mut depth, mut quoted, mut from) = (0usize, false, open + 1);
    for (i, &c) in record.iter().enumerate().skip(open + 1) {
        match c {
            b'\'' => quoted = !quoted,
            _ if quoted => {}
            b'(' => depth += 1,
            b')' if depth == 0 => {
                out.push((from, i));
                return out;
            }
            b')' => depth -= 1,
            b',' if depth == 0 => {
                out.push((from, i));
                from = i + 1;
            }
            _ => {}
        }
    }
    // No closing parenthesis: a cut record, left alone.
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(records: &str) -> Vec<u8> {
        format!("ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n{records}\nENDSEC;\nEND-ISO-10303-21;\n")
            .into_bytes()
    }

    #[test]
    fn arguments_skip_lists_and_strings() {
        let r = b"#5=IFCX('a,''b',(1.,2.),#3,$);";
        let spans: Vec<&[u8]> = arguments(r).iter().map(|&(a, b)| &r[a..b]).collect();
        assert_eq!(spans, [&b"'a,''b'"[..], b"(1.,2.)", b"#3", b"$"]);
        assert!(arguments(b"#5=IFCX(1.,(2.").is_empty());
    }

    #[test]
    fn parameters_on_a_polyline_are_blanked_and_on_a_circle_kept() {
        let content = file(
            "#1=IFCPOLYLINE((#10,#11,#12));\n\
             #2=IFCCIRCLE(#20,1.5);\n\
             #3=IFCSURFACECURVESWEPTAREASOLID(#30,#31,#1,0.,1.,#32);\n\
             #4=IfcSweptDiskSolid(#2,0.1,$,0.,1.5);\n\
             #5=IFCSWEPTDISKSOLID(#1,0.1,$,0.,2.);\n\
             #6=IFCSWEPTDISKSOLID(#1,0.1,$,$,$);",
        );
        let (patched, changed) = whole_directrices(&content).expect("changed");
        assert_eq!(changed, 2);
        let text = String::from_utf8(patched).unwrap();
        assert!(text.contains("#3=IFCSURFACECURVESWEPTAREASOLID(#30,#31,#1,$,$,#32);"));
        assert!(text.contains("#4=IfcSweptDiskSolid(#2,0.1,$,0.,1.5);"));
        assert!(text.contains("#5=IFCSWEPTDISKSOLID(#1,0.1,$,$,$);"));
        assert_eq!(text.len(), content.len() - 4);
    }

    #[test]
    fn content_without_such_solids_is_not_copied() {
        assert!(whole_directrices(&file("#1=IFCWALL('x',$,$,$,$,$,$,$,$);")).is_none());
        assert!(whole_directrices(&file("#1=IFCSWEPTDISKSOLID(#2,0.1,$,$,$);")).is_none());
    }
}
