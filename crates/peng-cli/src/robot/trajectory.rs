//! Trajectories: waypoints read from CSV (one row per waypoint, one column
//! per active joint, an optional header of joint names), or a URDF's zero
//! configuration.

use anyhow::{bail, Result};
use peng_robot::{JointKind, Robot};

/// Waypoints of a robot, each a configuration in
/// [`Robot::active_joints`] order.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// The configurations.
    pub waypoints: Vec<Vec<f64>>,
    /// The 1-based line of each waypoint in its file (`None` when it was
    /// not read from one).
    pub lines: Vec<Option<usize>>,
}

impl Trajectory {
    /// The robot's zero configuration, each value clamped into its joint's
    /// limits, as the only waypoint.
    pub fn zero(robot: &Robot) -> Trajectory {
        let q = robot
            .active_joints()
            .iter()
            .map(|&j| {
                let joint = &robot.joints[j];
                match (joint.kind, joint.limits) {
                    (JointKind::Continuous, _) | (_, None) => 0.0,
                    (_, Some(l)) => 0f64.max(l.lower).min(l.upper),
                }
            })
            .collect();
        Trajectory {
            waypoints: vec![q],
            lines: vec![None],
        }
    }
}

/// The fields of a CSV line, trimmed.
fn fields(line: &str) -> Vec<&str> {
    line.split(',').map(str::trim).collect()
}

/// A finite number, or `None`.
fn number(field: &str) -> Option<f64> {
    field.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Parses the CSV `text` of waypoints for `robot`; `file` names it in
/// errors (`FILE:LINE: ...`). Every waypoint is checked against the joint
/// limits.
pub fn parse(file: &str, text: &str, robot: &Robot) -> Result<Trajectory> {
    let active = robot.active_joints();
    let joint_name = |k: usize| robot.joints[active[k]].name.as_str();
    // A byte-order mark, as spreadsheet programs write, is not part of the
    // first field.
    let rows = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    // column → index into the configuration; the identity without a header.
    let mut order: Option<Vec<usize>> = None;
    let mut header_line = None;
    let mut out = Trajectory {
        waypoints: Vec::new(),
        lines: Vec::new(),
    };
    for (line, row) in rows {
        let f = fields(row);
        if header_line.is_none()
            && out.waypoints.is_empty()
            && f.iter().all(|x| number(x).is_none())
        {
            order = Some(header(file, line, &f, robot)?);
            header_line = Some(line);
            continue;
        }
        if f.len() != active.len() {
            let what = match header_line {
                Some(h) => format!("the header (line {h}) has {}", active.len()),
                None => format!(
                    "the robot has {} active joints ({})",
                    active.len(),
                    (0..active.len())
                        .map(joint_name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            bail!("{file}:{line}: {} values; {what}", f.len());
        }
        let mut q = vec![0.0; active.len()];
        for (col, x) in f.iter().enumerate() {
            let k = order.as_ref().map_or(col, |o| o[col]);
            let Some(v) = number(x) else {
                bail!(
                    "{file}:{line}: column {} ({}): {x:?} is not a number",
                    col + 1,
                    joint_name(k)
                );
            };
            q[k] = v;
        }
        if let Err(e) = robot.joint_positions(&q) {
            bail!("{file}:{line}: {e}");
        }
        out.waypoints.push(q);
        out.lines.push(Some(line));
    }
    if out.waypoints.is_empty() {
        bail!("{file}: no waypoints (every line is blank, a comment or the header)");
    }
    Ok(out)
}

/// The configuration index of each column of a header row.
fn header(file: &str, line: usize, names: &[&str], robot: &Robot) -> Result<Vec<usize>> {
    let active = robot.active_joints();
    let mut order = Vec::with_capacity(names.len());
    for (col, name) in names.iter().enumerate() {
        let Some(k) = robot
            .joint(name)
            .and_then(|j| active.iter().position(|&a| a == j))
        else {
            let why = match robot.joint(name) {
                Some(_) => "is fixed or follows another joint (mimic): it takes no value",
                None => "is not a joint of the robot",
            };
            bail!("{file}:{line}: column {} ({name:?}) {why}", col + 1);
        };
        if let Some(first) = order.iter().position(|&o| o == k) {
            bail!(
                "{file}:{line}: column {} repeats joint {name:?} of column {}",
                col + 1,
                first + 1
            );
        }
        order.push(k);
    }
    let missing: Vec<&str> = (0..active.len())
        .filter(|k| !order.contains(k))
        .map(|k| robot.joints[active[k]].name.as_str())
        .collect();
    if !missing.is_empty() {
        bail!(
            "{file}:{line}: the header has no column for joint{} {}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        );
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use peng_robot::urdf;

    /// Three revolute joints a, b, c in a chain (c limited to ±1), and a
    /// fixed joint.
    fn robot() -> Robot {
        let mut x = String::from("<robot name=\"r\"><link name=\"l0\"/>");
        for (i, (name, lim)) in [("a", 3.0), ("b", 3.0), ("c", 1.0)].iter().enumerate() {
            x += &format!(
                "<link name=\"l{}\"/><joint name=\"{name}\" type=\"revolute\">\
                 <parent link=\"l{i}\"/><child link=\"l{}\"/><axis xyz=\"0 0 1\"/>\
                 <limit lower=\"-{lim}\" upper=\"{lim}\"/></joint>",
                i + 1,
                i + 1
            );
        }
        x += "<link name=\"tool\"/><joint name=\"mount\" type=\"fixed\">\
              <parent link=\"l3\"/><child link=\"tool\"/></joint></robot>";
        urdf::parse(&x).unwrap()
    }

    fn err(text: &str) -> String {
        parse("m.csv", text, &robot()).unwrap_err().to_string()
    }

    #[test]
    fn rows_without_header_follow_the_configuration_order() {
        let t = parse(
            "m.csv",
            "# start\n\n0, 0, 0\n  0.5,-1e-1 ,1\n# end\n",
            &robot(),
        )
        .unwrap();
        assert_eq!(t.waypoints, vec![vec![0.0, 0.0, 0.0], vec![0.5, -0.1, 1.0]]);
        assert_eq!(t.lines, vec![Some(3), Some(4)]);
    }

    #[test]
    fn a_header_matches_columns_by_name_in_any_order() {
        let t = parse("m.csv", "# c first\nc, a, b\n0.25, 1, 2\n", &robot()).unwrap();
        assert_eq!(t.waypoints, vec![vec![1.0, 2.0, 0.25]]);
        assert_eq!(t.lines, vec![Some(3)]);
        // A spreadsheet's byte-order mark and CRLF line ends.
        let t = parse("m.csv", "\u{feff}b,c,a\r\n1,0.5,2\r\n", &robot()).unwrap();
        assert_eq!(t.waypoints, vec![vec![2.0, 1.0, 0.5]]);
    }

    #[test]
    fn errors_name_file_line_column_and_joint() {
        assert_eq!(
            err("a,b,c\n0,0,0\n\n0, x1, 0\n"),
            "m.csv:4: column 2 (b): \"x1\" is not a number"
        );
        // Not finite counts as not a number; the column is the joint's own
        // under a reordering header.
        assert_eq!(
            err("c,b,a\n0,0,inf\n"),
            "m.csv:2: column 3 (a): \"inf\" is not a number"
        );
        assert_eq!(
            err("0,0\n"),
            "m.csv:1: 2 values; the robot has 3 active joints (a, b, c)"
        );
        assert_eq!(
            err("a,b,c\n0,0,0,0\n"),
            "m.csv:2: 4 values; the header (line 1) has 3"
        );
        assert_eq!(
            err("a,elbow,c\n"),
            "m.csv:1: column 2 (\"elbow\") is not a joint of the robot"
        );
        assert_eq!(
            err("a,b,c,mount\n"),
            "m.csv:1: column 4 (\"mount\") is fixed or follows another joint (mimic): it takes no value"
        );
        assert_eq!(
            err("a,b,a\n"),
            "m.csv:1: column 3 repeats joint \"a\" of column 1"
        );
        assert_eq!(
            err("b,a\n"),
            "m.csv:1: the header has no column for joint c"
        );
        assert_eq!(
            err("# nothing\n\n"),
            "m.csv: no waypoints (every line is blank, a comment or the header)"
        );
        // A value outside the limits: the robot model's own message.
        assert_eq!(
            err("0,0,0\n0,0,1.5\n"),
            "m.csv:2: joint \"c\": value 1.5 is outside its limits [-1, 1]"
        );
    }

    #[test]
    fn a_second_all_text_row_is_a_bad_number_not_a_header() {
        assert_eq!(
            err("a,b,c\nx,y,z\n"),
            "m.csv:2: column 1 (a): \"x\" is not a number"
        );
    }

    #[test]
    fn the_zero_configuration_is_clamped_into_the_limits() {
        let r = urdf::parse(
            "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\
             <joint name=\"lift\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>\
             <limit lower=\"0.2\" upper=\"0.5\"/></joint>\
             <joint name=\"spin\" type=\"continuous\"><parent link=\"b\"/><child link=\"c\"/></joint>\
             </robot>",
        )
        .unwrap();
        let t = Trajectory::zero(&r);
        assert_eq!(t.waypoints, vec![vec![0.2, 0.0]]);
        assert!(r.joint_positions(&t.waypoints[0]).is_ok());
    }
}
