//! `--a`, `--a-not`, `--b`, `--b-not`: `KEY=VALUE` selectors into clash sets.

use anyhow::{bail, Result};
use peng_clash::{Selection, Selector};

/// The selection made of `include` and `exclude` selector texts; `option`
/// names the options in errors (`--a`: `--a` and `--a-not`).
pub fn selection(option: &str, include: &[String], exclude: &[String]) -> Result<Selection> {
    let parse_all = |texts: &[String], opt: &str| -> Result<Vec<Selector>> {
        texts.iter().map(|t| selector(opt, t)).collect()
    };
    Ok(Selection {
        include: parse_all(include, option)?,
        exclude: parse_all(exclude, &format!("{option}-not"))?,
    })
}

/// One `KEY=VALUE` selector given to `option`.
pub fn selector(option: &str, text: &str) -> Result<Selector> {
    let Some((key, value)) = text.split_once('=') else {
        bail!(
            "{option} {text:?}: expected KEY=VALUE with KEY one of class, name, storey, file, id"
        );
    };
    let (key, value) = (key.trim(), value.trim());
    if value.is_empty() {
        bail!("{option} {text:?}: the value after \"{key}=\" is empty");
    }
    Ok(match key.to_ascii_lowercase().as_str() {
        "class" => {
            // Classes match by prefix already: a trailing * says the same.
            let class = value.trim_end_matches('*');
            if class.is_empty() || class.contains(['*', '?']) {
                bail!(
                    "{option} {text:?}: a class matches by its start (class=IfcDuct picks \
                     IfcDuctSegment and IfcDuctFitting); only a trailing * is allowed \
                     (use name= for patterns)"
                );
            }
            Selector::Class(class.to_string())
        }
        "name" => Selector::Name(value.to_string()),
        "storey" => Selector::Storey(value.to_string()),
        "file" => Selector::File(value.to_string()),
        "id" => {
            let ids: Vec<String> = value
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            if ids.is_empty() {
                bail!("{option} {text:?}: no element id given");
            }
            Selector::Ids(ids)
        }
        _ => bail!(
            "{option} {text:?}: unknown selector key \"{key}\" (expected class, name, storey, \
             file or id)"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values() {
        assert_eq!(
            selector("--a", "class=IfcDuct*").unwrap(),
            Selector::Class("IfcDuct".into())
        );
        assert_eq!(
            selector("--a", "name=Duct *=2").unwrap(),
            Selector::Name("Duct *=2".into())
        );
        assert_eq!(
            selector("--b", "storey=Level 2").unwrap(),
            Selector::Storey("Level 2".into())
        );
        assert_eq!(
            selector("--b", "FILE=mep.ifc").unwrap(),
            Selector::File("mep.ifc".into())
        );
        assert_eq!(
            selector("--a", "id=1abc, 2def").unwrap(),
            Selector::Ids(vec!["1abc".into(), "2def".into()])
        );
    }

    #[test]
    fn errors_name_the_option_and_the_text() {
        let e = selector("--a-not", "colour=red").unwrap_err().to_string();
        assert!(
            e.starts_with("--a-not \"colour=red\": unknown selector key \"colour\""),
            "{e}"
        );
        let e = selector("--b", "IfcWall").unwrap_err().to_string();
        assert!(e.contains("expected KEY=VALUE"), "{e}");
        assert!(selector("--b", "name=").is_err());
        assert!(selector("--b", "id=,").is_err());
        assert!(selector("--b", "class=Ifc*Segment").is_err());
        assert!(selector("--b", "class=*").is_err());
    }

    #[test]
    fn selection_takes_both_lists() {
        let s = selection(
            "--b",
            &["class=IfcWall".into()],
            &["storey=Level 2".into(), "name=*temp*".into()],
        )
        .unwrap();
        assert_eq!(s.include.len(), 1);
        assert_eq!(s.exclude.len(), 2);
        let e = selection("--b", &[], &["bad".into()])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--b-not \"bad\""), "{e}");
    }
}
