//! XML helpers shared by the URDF and SRDF readers: lines, attributes and
//! numbers, each error naming the element.

use crate::error::RobotError;
use glam::DVec3;
use roxmltree::{Document, Node};

/// Parses `text`; a syntax error names its line.
pub(crate) fn parse(text: &str) -> Result<Document<'_>, RobotError> {
    Document::parse(text).map_err(|e| {
        let pos = e.pos();
        RobotError::new("XML", e.to_string()).at(pos.row)
    })
}

/// The 1-based line where `node` starts.
pub(crate) fn line(node: Node) -> u32 {
    node.document().text_pos_at(node.range().start).row
}

/// `<tag name="...">` as the errors name it.
pub(crate) fn label(node: Node) -> String {
    match node.attribute("name") {
        Some(n) => format!("<{} name=\"{n}\">", node.tag_name().name()),
        None => format!("<{}>", node.tag_name().name()),
    }
}

/// An error about `node`, at its line.
pub(crate) fn error(node: Node, message: impl Into<String>) -> RobotError {
    RobotError::new(label(node), message).at(line(node))
}

/// A required attribute.
pub(crate) fn required<'a>(node: Node<'a, 'a>, attr: &str) -> Result<&'a str, RobotError> {
    node.attribute(attr)
        .ok_or_else(|| error(node, format!("has no `{attr}` attribute")))
}

/// The children of `node` with tag `tag`.
pub(crate) fn children<'a, 'input>(
    node: Node<'a, 'input>,
    tag: &'static str,
) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// The one child with tag `tag`, if any (a second is an error).
pub(crate) fn child<'a, 'input>(
    node: Node<'a, 'input>,
    tag: &'static str,
) -> Result<Option<Node<'a, 'input>>, RobotError> {
    let mut it = children(node, tag);
    let first = it.next();
    if let Some(second) = it.next() {
        return Err(error(
            second,
            format!("is a second <{tag}> in {}", label(node)),
        ));
    }
    Ok(first)
}

/// A finite number from attribute `attr` (`default` when absent).
pub(crate) fn number(node: Node, attr: &str, default: Option<f64>) -> Result<f64, RobotError> {
    let Some(text) = node.attribute(attr) else {
        return default.ok_or_else(|| error(node, format!("has no `{attr}` attribute")));
    };
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| error(node, format!("`{attr}` is not a number: \"{text}\"")))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(error(node, format!("`{attr}` is not finite: \"{text}\"")))
    }
}

/// Three finite numbers from attribute `attr` (`default` when absent).
pub(crate) fn vec3(node: Node, attr: &str, default: Option<DVec3>) -> Result<DVec3, RobotError> {
    let Some(text) = node.attribute(attr) else {
        return default.ok_or_else(|| error(node, format!("has no `{attr}` attribute")));
    };
    let parts: Vec<&str> = text.split_whitespace().collect();
    let bad = || {
        error(
            node,
            format!("`{attr}` must be three numbers, got \"{text}\""),
        )
    };
    if parts.len() != 3 {
        return Err(bad());
    }
    let mut v = [0.0f64; 3];
    for (x, p) in v.iter_mut().zip(&parts) {
        *x = p.parse().map_err(|_| bad())?;
        if !x.is_finite() {
            return Err(error(node, format!("`{attr}` is not finite: \"{text}\"")));
        }
    }
    Ok(DVec3::from(v))
}
