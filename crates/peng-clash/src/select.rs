//! Selectors: which elements make up a clash set.
//!
//! A [`Selection`] includes the elements that match any of its `include`
//! selectors (every element when there are none) and then drops those that
//! match any of its `exclude` selectors.

use crate::element::Element;

/// One way of picking elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// The IFC class, case-insensitive; `IfcWall` also picks subclasses that
    /// extend the name (`IfcWallStandardCase`).
    Class(String),
    /// A name pattern: `*` any run of characters, `?` any one; case-insensitive.
    Name(String),
    /// The storey name, exactly.
    Storey(String),
    /// The file name: exactly, or its last path component.
    File(String),
    /// Element ids (IFC GlobalIds, mesh node names).
    Ids(Vec<String>),
}

impl Selector {
    /// Whether `e` matches.
    pub fn matches(&self, e: &Element) -> bool {
        let id = &e.identity;
        match self {
            Selector::Class(c) => {
                let (c, have) = (c.to_ascii_lowercase(), id.class.to_ascii_lowercase());
                have.starts_with(&c)
            }
            Selector::Name(p) => glob(&p.to_lowercase(), &id.name.to_lowercase()),
            Selector::Storey(s) => id.storey.as_deref() == Some(s.as_str()),
            Selector::File(f) => id.file == *f || file_name(&id.file) == file_name(f),
            Selector::Ids(ids) => ids.contains(&id.id),
        }
    }
}

/// Elements to include and exclude.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// Pick elements matching any of these (all elements when empty).
    pub include: Vec<Selector>,
    /// Then drop elements matching any of these.
    pub exclude: Vec<Selector>,
}

impl Selection {
    /// Every element.
    pub fn all() -> Selection {
        Selection::default()
    }

    /// Whether `e` is selected.
    pub fn selects(&self, e: &Element) -> bool {
        (self.include.is_empty() || self.include.iter().any(|s| s.matches(e)))
            && !self.exclude.iter().any(|s| s.matches(e))
    }

    /// The indices of the selected elements of `model`.
    pub fn indices(&self, model: &[Element]) -> Vec<usize> {
        (0..model.len())
            .filter(|&i| self.selects(&model[i]))
            .collect()
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Glob matching with `*` and `?`, by the two-pointer walk with one
/// backtrack point (linear in practice, no recursion).
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            // Let the last star eat one more character.
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Identity, Solid};
    use glam::DVec3;

    fn el(id: &str, class: &str, name: &str, storey: &str, file: &str) -> Element {
        let s = Solid::cuboid(DVec3::ZERO, DVec3::ONE);
        let identity = Identity {
            id: id.into(),
            class: class.into(),
            name: name.into(),
            storey: Some(storey.into()),
            file: file.into(),
            parent: None,
            ..Identity::default()
        };
        Element::from_world(identity, &s.vertices, s.triangles).unwrap()
    }

    #[test]
    fn glob_patterns() {
        assert!(glob("duct*", "duct 200x300"));
        assert!(glob("*200*", "duct 200x300"));
        assert!(glob("d?ct", "duct"));
        assert!(!glob("d?ct", "dct"));
        assert!(glob("*", ""));
        assert!(!glob("a*b", "acbd"));
        assert!(glob("a*b*", "acbd"));
        assert!(glob("", ""));
        assert!(!glob("", "x"));
    }

    #[test]
    fn include_then_exclude() {
        let model = vec![
            el(
                "1",
                "IfcWallStandardCase",
                "Basic Wall:200",
                "Level 1",
                "arch/A.ifc",
            ),
            el("2", "IfcSlab", "Floor", "Level 1", "arch/A.ifc"),
            el("3", "IfcDuctSegment", "Duct 200", "Level 2", "MEP.ifc"),
            el("4", "IfcWall", "Basic Wall:300", "Level 2", "arch/A.ifc"),
        ];
        let walls = Selection {
            include: vec![Selector::Class("IfcWall".into())],
            exclude: vec![],
        };
        assert_eq!(walls.indices(&model), vec![0, 3]);
        let not_level2 = Selection {
            include: vec![],
            exclude: vec![Selector::Storey("Level 2".into())],
        };
        assert_eq!(not_level2.indices(&model), vec![0, 1]);
        let by_file = Selection {
            include: vec![Selector::File("A.ifc".into())],
            exclude: vec![Selector::Name("*:300".into())],
        };
        assert_eq!(by_file.indices(&model), vec![0, 1]);
        let ids = Selection {
            include: vec![
                Selector::Ids(vec!["3".into(), "9".into()]),
                Selector::Class("ifcslab".into()),
            ],
            exclude: vec![],
        };
        assert_eq!(ids.indices(&model), vec![1, 2]);
        assert_eq!(Selection::all().indices(&model), vec![0, 1, 2, 3]);
    }
}
