//! Human-readable and JSON renderings of a [`Report`].

use crate::check::Report;
use std::fmt::Write as _;

/// A number with 4 decimals, without a `-0.0000`.
fn num(x: f32) -> String {
    let s = format!("{x:.4}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// A vector as `(x, y)` or `(x, y, z)`.
fn vec(v: &[f32]) -> String {
    let parts: Vec<String> = v.iter().map(|&x| num(x)).collect();
    format!("({})", parts.join(", "))
}

/// The text report printed by `peng check`.
pub fn text(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "scene {}: {}D, {} shapes, {} pairs, {} past the AABB prefilter",
        r.scene, r.dimension, r.shapes, r.pairs, r.pairs_tested
    );
    let _ = writeln!(s, "\noverlapping pairs: {}", r.overlaps.len());
    for o in &r.overlaps {
        let _ = writeln!(
            s,
            "  {} / {}: depth {}, normal {}",
            o.a,
            o.b,
            num(o.depth),
            vec(&o.normal)
        );
        for p in &o.points {
            let mut line = format!(
                "      contact {} on {}, {} on {}, depth {}",
                vec(&p.point_a),
                o.a,
                vec(&p.point_b),
                o.b,
                num(p.depth)
            );
            if o.compound {
                let _ = write!(line, ", parts {} / {}", p.part_a, p.part_b);
            }
            if p.normal
                .iter()
                .zip(&o.normal)
                .any(|(x, y)| (x - y).abs() > 1e-4)
            {
                let _ = write!(line, ", normal {}", vec(&p.normal));
            }
            let _ = writeln!(s, "{line}");
        }
    }
    if r.distance > 0.0 {
        let _ = writeln!(
            s,
            "\nnear pairs (distance <= {}): {}",
            num(r.distance),
            r.near.len()
        );
        for n in &r.near {
            let _ = writeln!(
                s,
                "  {} / {}: distance {}, normal {}",
                n.a,
                n.b,
                num(n.distance),
                vec(&n.normal)
            );
            let _ = writeln!(
                s,
                "      closest {} on {}, {} on {}",
                vec(&n.point_a),
                n.a,
                vec(&n.point_b),
                n.b
            );
        }
    } else {
        let _ = writeln!(
            s,
            "\n(near pairs not checked: use --distance D to list pairs closer than D)"
        );
    }
    s
}

/// The `--json` report: one object, keys in a fixed order, pretty-printed.
pub fn json(r: &Report) -> String {
    // Serializing plain structs cannot fail; fall back to an empty object anyway.
    serde_json::to_string_pretty(r).unwrap_or_else(|_| "{}".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_no_negative_zero() {
        assert_eq!(num(-0.0), "0.0000");
        assert_eq!(num(-0.00001), "0.0000");
        assert_eq!(num(-0.25), "-0.2500");
        assert_eq!(vec(&[1.0, -0.5]), "(1.0000, -0.5000)");
    }
}
