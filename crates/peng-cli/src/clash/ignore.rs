//! `--ignore-pairs FILE`: pairs of element ids to skip.

use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::path::Path;

/// Reads the pairs of `path`.
pub fn read_pairs(path: &Path) -> Result<HashSet<(String, String)>> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --ignore-pairs file {name}"))?;
    parse_pairs(&name.to_string(), &text)
}

/// The pairs of `text`: one pair of ids per line, separated by spaces, or
/// by a tab when the line has one (then ids may hold spaces, as mesh node
/// names do); blank lines and lines starting with `#` are skipped (ids may
/// hold `#`). `name` names the file in errors.
pub fn parse_pairs(name: &str, text: &str) -> Result<HashSet<(String, String)>> {
    let mut pairs = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        let ids: Vec<&str> = if line.contains('\t') {
            line.split('\t')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect()
        } else {
            line.split_whitespace().collect()
        };
        match ids[..] {
            [] => {}
            [a, b] => {
                pairs.insert((a.to_string(), b.to_string()));
            }
            _ => bail!(
                "{name}:{}: expected two element ids (idA idB), got {}",
                i + 1,
                ids.len()
            ),
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_comments_and_errors() {
        let p = parse_pairs(
            "x.txt",
            "# accepted\n1abc 2def\n\n  # site visit\n\tCube 1\tfirst#2 \n",
        )
        .unwrap();
        assert_eq!(p.len(), 2);
        assert!(p.contains(&("1abc".into(), "2def".into())));
        assert!(p.contains(&("Cube 1".into(), "first#2".into())));
        let e = parse_pairs("x.txt", "a b\nonly\n").unwrap_err().to_string();
        assert_eq!(e, "x.txt:2: expected two element ids (idA idB), got 1");
    }
}
