//! Meshing elements with ifc-lite: body representations, openings cut from
//! their hosts, per-element f64 origins; in parallel, in file order.

use crate::element::{describe, Element, Identity};
use crate::error::ClashError;
use glam::{DVec3, Vec3};
use ifc_lite_core::{DecodedEntity, EntityDecoder, EntityIndex};
use ifc_lite_geometry::kernel::budget;
use ifc_lite_geometry::{
    meshed_representations, GeometryRouter, ItemDedupCache, Mesh, RouterConfig,
    SharedMappedItemCache,
};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// ifc-lite's maps use its own hasher, which it names only through public
/// aliases such as [`EntityIndex`]; this reads it back from that alias.
pub(crate) trait MapHasher {
    /// The map's hasher builder.
    type Hasher;
}
impl<K, V, S> MapHasher for HashMap<K, V, S> {
    type Hasher = S;
}

/// Host express id -> the openings cut from it (ifc-lite's void index).
pub(crate) type VoidIndex = HashMap<u32, Vec<u32>, <EntityIndex as MapHasher>::Hasher>;

/// `IfcProduct.Representation` and `IfcProductDefinitionShape.Representations`.
const REPRESENTATION: usize = 6;
const REPRESENTATIONS: usize = 2;

/// One element to mesh.
pub(crate) struct Job {
    /// The element's record.
    pub entity: DecodedEntity,
    /// Who it is.
    pub identity: Identity,
}

impl Job {
    /// A problem with this element, named `#id Class GlobalId "Name"`.
    pub(crate) fn problem(&self, what: impl Into<String>) -> ClashError {
        ClashError::Element {
            file: self.identity.file.clone(),
            element: format!("#{} {}", self.entity.id, describe(&self.identity)),
            what: what.into(),
        }
    }
}

/// What meshing one element gave.
pub(crate) enum Outcome {
    /// The element with its mesh (boxed: it is large), and warnings about
    /// it (cuts approximated, a mesh left open).
    Element(Box<Element>, Vec<ClashError>),
    /// No body geometry to mesh (as IfcOpenShell would skip it).
    Skipped,
    /// The element is unusable.
    Problem(ClashError),
}

/// Everything the meshing threads share.
pub(crate) struct Mesher<'a> {
    content: &'a [u8],
    index: Arc<EntityIndex>,
    config: RouterConfig,
    scales: (f64, f64),
    dedup: ItemDedupCache,
    mapped: SharedMappedItemCache,
    voids: &'a VoidIndex,
    limits: super::guard::Limits,
}

impl<'a> Mesher<'a> {
    /// A mesher of `content`'s elements in metres (`scales`: metres per
    /// file length unit, radians per file plane angle unit), each element
    /// checked against `limits` first.
    pub(crate) fn new(
        content: &'a [u8],
        index: Arc<EntityIndex>,
        (unit_scale, radians): (f64, f64),
        voids: &'a VoidIndex,
        limits: super::guard::Limits,
    ) -> Mesher<'a> {
        Mesher {
            content,
            index,
            config: RouterConfig {
                unit_scale,
                // Vertices relative to a per-element f64 origin.
                local_frame: Some(true),
                ..RouterConfig::default()
            },
            scales: (unit_scale, radians),
            dedup: GeometryRouter::new_dedup_cache(),
            mapped: GeometryRouter::new_mapped_item_cache(),
            voids,
            limits,
        }
    }

    /// Meshes every job; outcomes in job order. Rayon hands the jobs out
    /// one by one (a few walls with openings can take most of the time);
    /// each of its work splits gets its own decoder and router.
    pub(crate) fn run(&self, jobs: &[Job]) -> Vec<Outcome> {
        jobs.par_iter()
            .map_init(
                || (self.decoder(), self.router()),
                |(decoder, router), job| self.guarded(decoder, router, job),
            )
            .collect()
    }

    fn decoder(&self) -> EntityDecoder<'a> {
        let mut d = EntityDecoder::with_arc_index(self.content, self.index.clone());
        d.seed_unit_scales(self.scales.0, self.scales.1);
        d
    }

    fn router(&self) -> GeometryRouter {
        let mut r = GeometryRouter::from_config(self.config.clone());
        r.enable_content_dedup_shared(self.dedup.clone());
        r.enable_shared_mapped_item_cache(self.mapped.clone());
        r
    }

    /// Meshes one job; a panic in ifc-lite becomes this element's problem
    /// (caught without printing: the problem carries its message).
    fn guarded(
        &self,
        decoder: &mut EntityDecoder<'a>,
        router: &mut GeometryRouter,
        job: &Job,
    ) -> Outcome {
        let openings = self.voids.get(&job.entity.id).map_or(&[][..], |v| &v[..]);
        let checked = super::quiet::catch(|| {
            super::guard::check(decoder, job.entity.id, openings, &self.limits)
        });
        match checked {
            Ok(Ok(())) => {}
            Ok(Err(what)) => return Outcome::Problem(job.problem(what)),
            // The check's own reading failed: leave it to the meshing.
            Err(_) => *decoder = self.decoder(),
        }
        let meshed = super::quiet::catch(|| mesh_one(router, decoder, job, self.voids));
        meshed.unwrap_or_else(|panic| {
            // The router's and decoder's state is suspect: start afresh.
            *router = self.router();
            *decoder = self.decoder();
            Outcome::Problem(job.problem(format!(
                "meshing failed (ifc-lite panicked: {})",
                panic_text(&*panic)
            )))
        })
    }
}

/// What a caught panic said.
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "no message"
    }
}

/// Meshes one element with its openings cut.
fn mesh_one(
    router: &GeometryRouter,
    decoder: &mut EntityDecoder,
    job: &Job,
    voids: &VoidIndex,
) -> Outcome {
    match has_body(&job.entity, decoder) {
        Ok(true) => {}
        Ok(false) => return Outcome::Skipped,
        Err(e) => return Outcome::Problem(job.problem(e)),
    }
    // ifc-lite counts the exact-arithmetic evaluations of the element's
    // cuts against the per-element cap set in `parse`; past it the element's
    // remaining cuts are made as boxes.
    let scope = budget::enter_element();
    let parts = router.process_element_with_voids_parts(&job.entity, decoder, voids);
    let (work, cap) = (budget::element_count(), budget::element_cap());
    drop(scope);
    let parts = match parts {
        Ok(parts) => parts,
        Err(e) => return Outcome::Problem(job.problem(format!("no geometry: {e}"))),
    };
    let parts: Vec<Mesh> = parts
        .into_iter()
        .filter(|m| !m.indices.is_empty())
        .collect();
    if parts.is_empty() {
        if router.host_consumed_by_void(job.entity.id) {
            // Its openings remove all of it: nothing is left to clash.
            return Outcome::Skipped;
        }
        return Outcome::Problem(job.problem("no geometry: the body meshed to no triangles"));
    }
    let (origin, vertices, triangles) = merge(&parts);
    let e = match Element::from_local(job.identity.clone(), origin, vertices, triangles) {
        Ok(e) => e,
        Err(ClashError::Element { what, .. }) => return Outcome::Problem(job.problem(what)),
        Err(e) => return Outcome::Problem(e),
    };
    let mut warnings = Vec::new();
    if cap.is_some_and(|cap| work >= cap) {
        warnings.push(job.problem(format!(
            "cutting its openings and booleans exactly needs more than {} exact \
             evaluations (the limit; about 50,000 a second): the rest were cut as boxes \
             around the cutting solids (raise the limit with --max-cut-work)",
            cap.unwrap_or_default()
        )));
    }
    if let Some(what) = e.open_warning() {
        warnings.push(job.problem(what));
    }
    Outcome::Element(Box::new(e), warnings)
}

/// Whether the element has a representation ifc-lite meshes as a body (not
/// only axes, footprints or boxes); errors when the chain cannot be read.
fn has_body(element: &DecodedEntity, decoder: &mut EntityDecoder) -> Result<bool, String> {
    let Some(shape) = element.get_ref(REPRESENTATION) else {
        return Ok(false);
    };
    let unreadable =
        |id: u32, e: ifc_lite_core::Error| format!("unreadable representation #{id}: {e}");
    let shape_rec = decoder
        .decode_by_id(shape)
        .map_err(|e| unreadable(shape, e))?;
    let mut reps = Vec::new();
    for id in shape_rec.get_refs(REPRESENTATIONS).unwrap_or_default() {
        reps.push(decoder.decode_by_id(id).map_err(|e| unreadable(id, e))?);
    }
    let body = meshed_representations(element, &reps).next().is_some();
    Ok(body)
}

/// One mesh from ifc-lite's frame parts (one part unless the body's items lie
/// kilometres apart): the first part's origin and f32 vertices relative to it.
///
/// ifc-lite gives each face its own vertices (for flat normals); vertices at
/// the same position are merged here, exactly, so that the faces share edges
/// and a closed body reads as closed. Triangles left with a repeated corner
/// had no area and are dropped.
fn merge(parts: &[Mesh]) -> (DVec3, Vec<Vec3>, Vec<[u32; 3]>) {
    let origin = DVec3::from(parts[0].origin);
    let mut vertices = Vec::new();
    let mut seen: HashMap<[u32; 3], u32> = HashMap::new();
    let mut triangles = Vec::new();
    for part in parts {
        let shift = DVec3::from(part.origin) - origin;
        let welded: Vec<u32> = part
            .positions
            .chunks_exact(3)
            .map(|p| {
                let mut v = Vec3::new(p[0], p[1], p[2]);
                if shift != DVec3::ZERO {
                    v = (shift + v.as_dvec3()).as_vec3();
                }
                // `+ 0.0` makes -0.0 into 0.0, so both weld.
                let key = (v + Vec3::ZERO).to_array().map(f32::to_bits);
                *seen.entry(key).or_insert_with(|| {
                    vertices.push(v);
                    vertices.len() as u32 - 1
                })
            })
            .collect();
        for t in part.indices.chunks_exact(3) {
            let Some(t) = t
                .iter()
                .map(|&i| welded.get(i as usize).copied())
                .collect::<Option<Vec<u32>>>()
            else {
                continue;
            };
            if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] {
                triangles.push([t[0], t[1], t[2]]);
            }
        }
    }
    (origin, vertices, triangles)
}
