//! The URDF reader: links with collision geometry and mass properties,
//! joints with origins, axes, limits and mimics.
//!
//! Follows the URDF XML specification (wiki.ros.org/urdf/XML): `<robot>`
//! holds `<link>` and `<joint>` elements; `<origin xyz rpy>` defaults to
//! the identity, `<axis xyz>` to `1 0 0`; revolute and prismatic joints
//! need `<limit lower upper effort velocity>`. Visual elements, materials,
//! transmissions and Gazebo extensions are skipped. Floating and planar
//! joints are refused with an error naming them, as are unknown joint
//! types and unknown geometry.

use crate::error::RobotError;
use crate::model::{Collision, Geometry, Inertial, Joint, JointKind, Limits, Link, Mimic, Robot};
use crate::transform::Transform;
use crate::xml::{self, child, children, error, number, required, vec3};
use glam::DVec3;
use roxmltree::Node;
use std::collections::HashMap;
use std::path::Path;

/// Reads a URDF file; errors name the file.
pub fn read_file(path: impl AsRef<Path>) -> Result<Robot, RobotError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|e| RobotError::new("", format!("cannot read the file: {e}")).in_file(path))?;
    parse(&text).map_err(|e| e.in_file(path))
}

/// Reads a URDF document.
pub fn parse(text: &str) -> Result<Robot, RobotError> {
    let doc = xml::parse(text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(error(
            root,
            "is not <robot>: a URDF file's root element is <robot>",
        ));
    }
    let name = required(root, "name")?.to_string();

    let mut links = Vec::new();
    let mut link_at: HashMap<String, (usize, Node)> = HashMap::new();
    for node in children(root, "link") {
        let link = read_link(node)?;
        if let Some((_, first)) = link_at.get(&link.name) {
            return Err(error(
                node,
                format!("repeats the link name of line {}", xml::line(*first)),
            ));
        }
        link_at.insert(link.name.clone(), (links.len(), node));
        links.push(link);
    }
    if links.is_empty() {
        return Err(error(root, "has no <link>"));
    }

    let joint_nodes: Vec<Node> = children(root, "joint").collect();
    let mut joint_at: HashMap<&str, usize> = HashMap::new();
    for (i, node) in joint_nodes.iter().enumerate() {
        let n = required(*node, "name")?;
        if let Some(&first) = joint_at.get(n) {
            return Err(error(
                *node,
                format!(
                    "repeats the joint name of line {}",
                    xml::line(joint_nodes[first])
                ),
            ));
        }
        joint_at.insert(n, i);
    }
    let mut joints = Vec::with_capacity(joint_nodes.len());
    for node in &joint_nodes {
        joints.push(read_joint(*node, &link_at, &joint_at)?);
    }
    // A mimic joint follows a joint that moves on its own.
    for (node, joint) in joint_nodes.iter().zip(&joints) {
        if let Some(m) = joint.mimic {
            if !joints[m.joint].is_active() {
                return Err(error(
                    *node,
                    format!(
                        "mimics \"{}\", which is fixed or a mimic joint itself",
                        joints[m.joint].name
                    ),
                ));
            }
        }
    }
    Robot::new(name, links, joints)
}

/// `<origin xyz rpy>` of `node`, the identity when absent.
fn origin(node: Node) -> Result<Transform, RobotError> {
    match child(node, "origin")? {
        Some(o) => Ok(Transform::from_xyz_rpy(
            vec3(o, "xyz", Some(DVec3::ZERO))?,
            vec3(o, "rpy", Some(DVec3::ZERO))?,
        )),
        None => Ok(Transform::IDENTITY),
    }
}

fn read_link(node: Node) -> Result<Link, RobotError> {
    let name = required(node, "name")?.to_string();
    let mut collisions = Vec::new();
    for c in children(node, "collision") {
        let g = child(c, "geometry")?.ok_or_else(|| error(c, "has no <geometry>"))?;
        collisions.push(Collision {
            name: c.attribute("name").map(str::to_string),
            origin: origin(c)?,
            geometry: read_geometry(g)?,
        });
    }
    let inertial = match child(node, "inertial")? {
        Some(i) => {
            let mass = child(i, "mass")?.ok_or_else(|| error(i, "has no <mass>"))?;
            let m = number(mass, "value", None)?;
            if m < 0.0 {
                return Err(error(mass, format!("mass {m} is negative")));
            }
            let inertia = match child(i, "inertia")? {
                Some(t) => {
                    let mut v = [0.0; 6];
                    for (x, a) in v.iter_mut().zip(["ixx", "ixy", "ixz", "iyy", "iyz", "izz"]) {
                        *x = number(t, a, Some(0.0))?;
                    }
                    v
                }
                None => [0.0; 6],
            };
            Some(Inertial {
                origin: origin(i)?,
                mass: m,
                inertia,
            })
        }
        None => None,
    };
    Ok(Link {
        name,
        collisions,
        inertial,
    })
}

/// A positive finite size attribute.
fn positive(node: Node, attr: &str) -> Result<f64, RobotError> {
    let v = number(node, attr, None)?;
    if v > 0.0 {
        Ok(v)
    } else {
        Err(error(node, format!("`{attr}` must be positive, got {v}")))
    }
}

fn read_geometry(g: Node) -> Result<Geometry, RobotError> {
    let shapes: Vec<Node> = g.children().filter(|c| c.is_element()).collect();
    let [s] = shapes.as_slice() else {
        return Err(error(
            g,
            format!("must hold one shape, holds {}", shapes.len()),
        ));
    };
    Ok(match s.tag_name().name() {
        "box" => {
            let size = vec3(*s, "size", None)?;
            if size.min_element() <= 0.0 {
                return Err(error(*s, format!("sides must be positive, got {size}")));
            }
            Geometry::Box { size }
        }
        "cylinder" => Geometry::Cylinder {
            radius: positive(*s, "radius")?,
            length: positive(*s, "length")?,
        },
        "sphere" => Geometry::Sphere {
            radius: positive(*s, "radius")?,
        },
        "capsule" => Geometry::Capsule {
            radius: positive(*s, "radius")?,
            length: {
                let l = number(*s, "length", None)?;
                if l < 0.0 {
                    return Err(error(*s, format!("`length` must not be negative, got {l}")));
                }
                l
            },
        },
        "mesh" => {
            let scale = vec3(*s, "scale", Some(DVec3::ONE))?;
            if scale.abs().min_element() == 0.0 {
                return Err(error(
                    *s,
                    format!("scale must not be zero on any axis, got {scale}"),
                ));
            }
            Geometry::Mesh {
                filename: required(*s, "filename")?.to_string(),
                scale,
            }
        }
        other => {
            return Err(error(
                *s,
                format!("unknown geometry <{other}> (box, cylinder, sphere, capsule or mesh)"),
            ))
        }
    })
}

fn read_joint(
    node: Node,
    links: &HashMap<String, (usize, Node)>,
    joints: &HashMap<&str, usize>,
) -> Result<Joint, RobotError> {
    let name = required(node, "name")?.to_string();
    let kind = match required(node, "type")? {
        "revolute" => JointKind::Revolute,
        "continuous" => JointKind::Continuous,
        "prismatic" => JointKind::Prismatic,
        "fixed" => JointKind::Fixed,
        t @ ("floating" | "planar") => {
            return Err(error(
                node,
                format!("{t} joints are not supported (revolute, continuous, prismatic or fixed)"),
            ))
        }
        t => {
            return Err(error(
                node,
                format!("unknown joint type \"{t}\" (revolute, continuous, prismatic or fixed)"),
            ))
        }
    };
    let link_of = |tag: &'static str| -> Result<usize, RobotError> {
        let c = child(node, tag)?.ok_or_else(|| error(node, format!("has no <{tag}>")))?;
        let l = required(c, "link")?;
        links.get(l).map(|(i, _)| *i).ok_or_else(|| {
            error(
                c,
                format!("names link \"{l}\", which the file does not define"),
            )
        })
    };
    let (parent, child_link) = (link_of("parent")?, link_of("child")?);
    if parent == child_link {
        return Err(error(node, "joins a link to itself"));
    }
    let axis = match child(node, "axis")? {
        Some(a) => {
            let v = vec3(a, "xyz", Some(DVec3::X))?;
            v.try_normalize()
                .ok_or_else(|| error(a, format!("axis {v} has no direction")))?
        }
        None => DVec3::X,
    };
    let limits = match child(node, "limit")? {
        Some(l) => {
            // The specification's defaults: 0 for each bound; effort and
            // velocity, which it requires, are read as 0 when missing.
            let lim = Limits {
                lower: number(l, "lower", Some(0.0))?,
                upper: number(l, "upper", Some(0.0))?,
                effort: number(l, "effort", Some(0.0))?,
                velocity: number(l, "velocity", Some(0.0))?,
            };
            if lim.lower > lim.upper {
                return Err(error(
                    l,
                    format!("lower limit {} is above the upper {}", lim.lower, lim.upper),
                ));
            }
            Some(lim)
        }
        None if matches!(kind, JointKind::Revolute | JointKind::Prismatic) => {
            return Err(error(
                node,
                format!("is {} and has no <limit>", required(node, "type")?),
            ))
        }
        None => None,
    };
    let mimic = match child(node, "mimic")? {
        Some(m) => {
            let j = required(m, "joint")?;
            let &joint = joints.get(j).ok_or_else(|| {
                error(
                    m,
                    format!("names joint \"{j}\", which the file does not define"),
                )
            })?;
            Some(Mimic {
                joint,
                multiplier: number(m, "multiplier", Some(1.0))?,
                offset: number(m, "offset", Some(0.0))?,
            })
        }
        None => None,
    };
    Ok(Joint {
        name,
        kind,
        parent,
        child: child_link,
        origin: origin(node)?,
        axis,
        limits,
        mimic,
    })
}
