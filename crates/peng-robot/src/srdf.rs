//! The SRDF reader (MoveIt's semantic robot description): groups, named
//! group states and the link pairs whose collisions are disabled, checked
//! against the robot they describe.
//!
//! A group lists links, joints, chains (`base_link` to `tip_link`) and
//! other groups; its links are the listed links, the child links of its
//! joints and the links along its chains. Virtual joints, end effectors
//! and passive joints are skipped.

use crate::error::RobotError;
use crate::model::Robot;
use crate::xml::{self, children, error, number, required};
use roxmltree::Node;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// A named set of joints and links.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Its name.
    pub name: String,
    /// Its joints (indices into [`Robot::joints`]), sorted.
    pub joints: Vec<usize>,
    /// Its links (indices into [`Robot::links`]), sorted.
    pub links: Vec<usize>,
}

/// Named joint values of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupState {
    /// Its name.
    pub name: String,
    /// The group it belongs to.
    pub group: String,
    /// Joint values by joint index.
    pub values: Vec<(usize, f64)>,
}

/// A robot's semantic description.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Srdf {
    /// The groups, in file order.
    pub groups: Vec<Group>,
    /// The group states, in file order.
    pub states: Vec<GroupState>,
    /// Link pairs never checked against each other (smaller index first),
    /// sorted, with the reason the file gives.
    pub disabled: Vec<((usize, usize), String)>,
}

impl Srdf {
    /// Whether the collisions of links `a` and `b` are disabled.
    pub fn is_disabled(&self, a: usize, b: usize) -> bool {
        let key = (a.min(b), a.max(b));
        self.disabled.binary_search_by(|(k, _)| k.cmp(&key)).is_ok()
    }
}

/// Reads an SRDF file for `robot`; errors name the file.
pub fn read_file(path: impl AsRef<Path>, robot: &Robot) -> Result<Srdf, RobotError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|e| RobotError::new("", format!("cannot read the file: {e}")).in_file(path))?;
    parse(&text, robot).map_err(|e| e.in_file(path))
}

/// Reads an SRDF document for `robot`.
pub fn parse(text: &str, robot: &Robot) -> Result<Srdf, RobotError> {
    let doc = xml::parse(text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(error(
            root,
            "is not <robot>: an SRDF file's root element is <robot>",
        ));
    }
    let link = |node: Node, attr: &str| -> Result<usize, RobotError> {
        let n = required(node, attr)?;
        robot.link(n).ok_or_else(|| {
            error(
                node,
                format!(
                    "names link \"{n}\", which robot \"{}\" does not have",
                    robot.name
                ),
            )
        })
    };
    let joint = |node: Node| -> Result<usize, RobotError> {
        let n = required(node, "name")?;
        robot.joint(n).ok_or_else(|| {
            error(
                node,
                format!(
                    "names joint \"{n}\", which robot \"{}\" does not have",
                    robot.name
                ),
            )
        })
    };

    // Groups may name groups defined later: resolve them after reading all.
    let group_nodes: Vec<Node> = children(root, "group").collect();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, g) in group_nodes.iter().enumerate() {
        if by_name.insert(required(*g, "name")?, i).is_some() {
            return Err(error(*g, "repeats a group name"));
        }
    }
    let mut groups: Vec<Option<Group>> = vec![None; group_nodes.len()];
    for i in 0..group_nodes.len() {
        resolve_group(
            i,
            &group_nodes,
            &by_name,
            &mut groups,
            &mut Vec::new(),
            robot,
            &link,
            &joint,
        )?;
    }
    let groups: Vec<Group> = groups.into_iter().flatten().collect();

    let mut states = Vec::new();
    for s in children(root, "group_state") {
        let group = required(s, "group")?;
        if !by_name.contains_key(group) {
            return Err(error(
                s,
                format!("names group \"{group}\", which the file does not define"),
            ));
        }
        let mut values = Vec::new();
        for j in children(s, "joint") {
            values.push((joint(j)?, number(j, "value", None)?));
        }
        states.push(GroupState {
            name: required(s, "name")?.to_string(),
            group: group.to_string(),
            values,
        });
    }

    let mut disabled = Vec::new();
    for d in children(root, "disable_collisions") {
        let (a, b) = (link(d, "link1")?, link(d, "link2")?);
        let reason = d.attribute("reason").unwrap_or("").to_string();
        disabled.push(((a.min(b), a.max(b)), reason));
    }
    disabled.sort_by_key(|x| x.0);
    disabled.dedup_by(|x, y| x.0 == y.0);
    Ok(Srdf {
        groups,
        states,
        disabled,
    })
}

/// Resolves group `i` (and the groups it names), detecting cycles.
#[allow(clippy::too_many_arguments)]
fn resolve_group(
    i: usize,
    nodes: &[Node],
    by_name: &HashMap<&str, usize>,
    out: &mut Vec<Option<Group>>,
    path: &mut Vec<usize>,
    robot: &Robot,
    link: &dyn Fn(Node, &str) -> Result<usize, RobotError>,
    joint: &dyn Fn(Node) -> Result<usize, RobotError>,
) -> Result<(), RobotError> {
    if out[i].is_some() {
        return Ok(());
    }
    let g = nodes[i];
    if path.contains(&i) {
        return Err(error(g, "contains itself through its subgroups"));
    }
    path.push(i);
    let (mut joints, mut links) = (BTreeSet::new(), BTreeSet::new());
    for c in g.children().filter(|c| c.is_element()) {
        match c.tag_name().name() {
            "link" => {
                links.insert(link(c, "name")?);
            }
            "joint" => {
                let j = joint(c)?;
                joints.insert(j);
                links.insert(robot.joints[j].child);
            }
            "chain" => {
                let (base, tip) = (link(c, "base_link")?, link(c, "tip_link")?);
                // Walk up from the tip to the base.
                let mut l = tip;
                while l != base {
                    let Some(j) = robot.parent_joint(l) else {
                        return Err(error(c, "its base link is not above its tip link"));
                    };
                    joints.insert(j);
                    links.insert(l);
                    l = robot.joints[j].parent;
                }
            }
            "group" => {
                let n = required(c, "name")?;
                let &k = by_name.get(n).ok_or_else(|| {
                    error(
                        c,
                        format!("names group \"{n}\", which the file does not define"),
                    )
                })?;
                resolve_group(k, nodes, by_name, out, path, robot, link, joint)?;
                if let Some(sub) = &out[k] {
                    joints.extend(sub.joints.iter().copied());
                    links.extend(sub.links.iter().copied());
                }
            }
            other => return Err(error(c, format!("unknown element <{other}> in a group"))),
        }
    }
    path.pop();
    out[i] = Some(Group {
        name: required(g, "name")?.to_string(),
        joints: joints.into_iter().collect(),
        links: links.into_iter().collect(),
    });
    Ok(())
}
