//! A clash check called from code, on the bundled generated example storey
//! (`peng_clash::example_model()`: walls, slabs, columns, beams, pipes and
//! ducts with one clash of each kind planted in it; no files needed).
//!
//! Set A is the building services (pipes and ducts), set B the structure
//! (beams, columns, walls, slabs). The example runs:
//!
//! 1. a hard check of A against B (surfaces crossing by more than 2 mm, as
//!    IfcOpenShell's `ifcclash` "intersection" mode);
//! 2. a clearance check of A against B at 5 cm;
//! 3. a hard check of A against itself (a pipe inside a duct);
//! 4. a duplicate check of the whole model (an element modelled twice);
//!
//! and prints each clash: its stable id, the two elements, the kind and the
//! signed distance (negative: the penetration depth). The planted clashes
//! are checked with `assert!`, so the example fails if the results change.
//!
//! To check a real model instead, load it with `peng_clash::read_ifc(path)`
//! (or `read_mesh_elements` for glTF, OBJ and STL assemblies): its
//! `elements` take the place of `example_model()` below.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng-clash --example clash_check
//! ```

use peng_clash::{
    example_model, run, Clash, ClashKind, ClashTest, Element, IgnoreRules, Mode, Selection,
    Selector,
};
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let model = example_model();
    println!("model: {} elements", model.len());

    // The two sets, chosen by IFC class (a class also picks its subclasses
    // that extend the name). Indices into `model`.
    let services = Selection {
        include: vec![
            Selector::Class("IfcPipeSegment".into()),
            Selector::Class("IfcDuctSegment".into()),
        ],
        exclude: vec![],
    };
    let structure = Selection {
        include: ["IfcBeam", "IfcColumn", "IfcWall", "IfcSlab"]
            .map(|c| Selector::Class(c.into()))
            .to_vec(),
        exclude: vec![],
    };
    let a = services.indices(&model);
    let b = structure.indices(&model);
    println!(
        "set A (services): {} elements, set B (structure): {}",
        a.len(),
        b.len()
    );

    let a_vs_b = |mode| ClashTest {
        a: a.clone(),
        b: Some(b.clone()),
        mode,
        ignore: IgnoreRules::default(),
        region: None,
    };

    // 1. Hard clashes, A against B.
    let hard = run(&model, &a_vs_b(Mode::INTERSECTION));
    print_clashes("hard (2 mm), services against structure", &model, &hard);
    expect(&model, &hard, "Duct D1", "Wall E", ClashKind::Protrusion)?;
    expect(&model, &hard, "Pipe P1", "Beam B1", ClashKind::Pierce)?;
    assert_eq!(hard.len(), 2);

    // 2. Clearance at 5 cm, A against B: the hard clashes again, plus the
    //    pipe that passes 2 cm under a beam.
    let clearance = run(&model, &a_vs_b(Mode::Clearance { distance: 0.05 }));
    print_clashes(
        "clearance 5 cm, services against structure",
        &model,
        &clearance,
    );
    let gap = expect(
        &model,
        &clearance,
        "Pipe P2",
        "Beam B2",
        ClashKind::Clearance,
    )?;
    assert!(
        (gap.finding.distance - 0.02).abs() < 1e-4,
        "the gap is 2 cm"
    );
    assert_eq!(clearance.len(), 3);

    // 3. Set A against itself (`b: None`): each pair once.
    let within = ClashTest {
        b: None,
        ..a_vs_b(Mode::INTERSECTION)
    };
    let within = run(&model, &within);
    print_clashes("hard (2 mm), services against themselves", &model, &within);
    expect(
        &model,
        &within,
        "Pipe P3",
        "Duct D1",
        ClashKind::Containment,
    )?;
    assert_eq!(within.len(), 1);

    // 4. Duplicates within 1 mm anywhere in the model.
    let dups = run(
        &model,
        &ClashTest::whole_model(&model, Mode::Duplicate { tolerance: 0.001 }),
    );
    print_clashes("duplicates (1 mm), whole model", &model, &dups);
    expect(
        &model,
        &dups,
        "Column C3",
        "Column C3 (copy)",
        ClashKind::Duplicate,
    )?;
    assert_eq!(dups.len(), 1);
    Ok(())
}

/// Prints one test's clashes, one line each.
fn print_clashes(title: &str, model: &[Element], clashes: &[Clash]) {
    println!("{title}: {} clash(es)", clashes.len());
    for c in clashes {
        let (ea, eb) = (&model[c.a].identity, &model[c.b].identity);
        let f = &c.finding;
        let what = if f.distance < 0.0 {
            format!("depth {:.3} m", -f.distance)
        } else {
            format!("distance {:.3} m", f.distance)
        };
        println!(
            "  {}  {:<11} {} ({}) - {} ({}): {what}, at [{:.2}, {:.2}, {:.2}]",
            c.id,
            f.kind.as_str(),
            ea.name,
            ea.class,
            eb.name,
            eb.class,
            f.point_a.x,
            f.point_a.y,
            f.point_a.z
        );
    }
}

/// The clash between the elements named `a` and `b` (in that order: A from
/// set A), which must be of `kind`.
fn expect<'c>(
    model: &[Element],
    clashes: &'c [Clash],
    a: &str,
    b: &str,
    kind: ClashKind,
) -> Result<&'c Clash, Box<dyn Error>> {
    let c = clashes
        .iter()
        .find(|c| model[c.a].identity.name == a && model[c.b].identity.name == b)
        .ok_or_else(|| format!("no clash between {a} and {b}"))?;
    assert_eq!(c.finding.kind, kind, "{a} - {b}");
    Ok(c)
}
