//! The JavaScript class `CollisionWorld`: the 2D collision world with
//! colliders named by numbers, triggers, margins and watched sets.

use crate::core::{Core, EVENT_STRIDE};
use crate::input;
use wasm_bindgen::prelude::*;

/// A 2D collision world (page pixels are fine units: the world has no
/// scale of its own). Colliders are numbers; `update()` reports which pairs
/// began, kept and stopped touching since the last update.
#[wasm_bindgen]
#[derive(Default)]
pub struct CollisionWorld {
    core: Core,
}

fn js(e: String) -> JsError {
    JsError::new(&e)
}

#[wasm_bindgen]
impl CollisionWorld {
    /// An empty world.
    #[wasm_bindgen(constructor)]
    pub fn new() -> CollisionWorld {
        CollisionWorld::default()
    }

    /// Numbers per event in [`CollisionWorld::events`].
    #[wasm_bindgen(getter, js_name = eventStride)]
    pub fn event_stride() -> usize {
        EVENT_STRIDE
    }

    /// Adds a circle; returns its id.
    #[wasm_bindgen(js_name = addCircle)]
    pub fn add_circle(&mut self, x: f64, y: f64, radius: f64) -> Result<u32, JsError> {
        self.core.add_circle(x, y, radius).map_err(js)
    }

    /// Adds a box (half extents, turned by `angle` radians); returns its id.
    #[wasm_bindgen(js_name = addBox)]
    pub fn add_box(
        &mut self,
        x: f64,
        y: f64,
        half_width: f64,
        half_height: f64,
        angle: f64,
    ) -> Result<u32, JsError> {
        self.core
            .add_box(x, y, half_width, half_height, angle)
            .map_err(js)
    }

    /// Adds a capsule along its x axis; returns its id.
    #[wasm_bindgen(js_name = addCapsule)]
    pub fn add_capsule(
        &mut self,
        x: f64,
        y: f64,
        half_length: f64,
        radius: f64,
        angle: f64,
    ) -> Result<u32, JsError> {
        self.core
            .add_capsule(x, y, half_length, radius, angle)
            .map_err(js)
    }

    /// Adds the convex hull of `points` (x0, y0, x1, y1, ... in the
    /// collider's frame); returns its id.
    #[wasm_bindgen(js_name = addPolygon)]
    pub fn add_polygon(
        &mut self,
        x: f64,
        y: f64,
        angle: f64,
        points: &[f32],
    ) -> Result<u32, JsError> {
        self.core.add_polygon(x, y, angle, points).map_err(js)
    }

    /// Makes a collider a circle (same id: a contact that goes on stays
    /// one contact).
    #[wasm_bindgen(js_name = setCircle)]
    pub fn set_circle(&mut self, id: f64, radius: f64) -> Result<(), JsError> {
        let s = crate::core::circle(radius).map_err(js)?;
        self.core.reshape(id, s).map_err(js)
    }

    /// Makes a collider a box.
    #[wasm_bindgen(js_name = setBox)]
    pub fn set_box(&mut self, id: f64, half_width: f64, half_height: f64) -> Result<(), JsError> {
        let s = crate::core::rect(half_width, half_height).map_err(js)?;
        self.core.reshape(id, s).map_err(js)
    }

    /// Makes a collider a capsule along its x axis.
    #[wasm_bindgen(js_name = setCapsule)]
    pub fn set_capsule(&mut self, id: f64, half_length: f64, radius: f64) -> Result<(), JsError> {
        let s = crate::core::capsule(half_length, radius).map_err(js)?;
        self.core.reshape(id, s).map_err(js)
    }

    /// Makes a collider the convex hull of `points`.
    #[wasm_bindgen(js_name = setPolygon)]
    pub fn set_polygon(&mut self, id: f64, points: &[f32]) -> Result<(), JsError> {
        let s = crate::core::polygon(points).map_err(js)?;
        self.core.reshape(id, s).map_err(js)
    }

    /// Removes a collider.
    pub fn remove(&mut self, id: f64) -> Result<(), JsError> {
        self.core.remove(id).map_err(js)
    }

    /// Moves a collider.
    #[wasm_bindgen(js_name = setPose)]
    pub fn set_pose(&mut self, id: f64, x: f64, y: f64, angle: f64) -> Result<(), JsError> {
        self.core.set_pose(id, x, y, angle).map_err(js)
    }

    /// Moves many colliders in one call: `data` holds `id, x, y, angle`
    /// for each (a page moving many elements a frame saves a call each).
    /// All are checked first: on an error nothing moves.
    #[wasm_bindgen(js_name = setPoses)]
    pub fn set_poses(&mut self, data: &[f64]) -> Result<(), JsError> {
        self.core.set_poses(data).map_err(js)
    }

    /// Its margin: `"none"`, `"boundary"` (touching within `value` of its
    /// boundary) or `"centre"` (touching when centres are within `value`).
    #[wasm_bindgen(js_name = setMargin)]
    pub fn set_margin(&mut self, id: f64, kind: &str, value: f64) -> Result<(), JsError> {
        let margin = input::margin(kind, value).map_err(js)?;
        self.core.modify(id, |c| c.margin = margin).map_err(js)
    }

    /// Its trigger mode: `"once"` or `"continuous"`.
    #[wasm_bindgen(js_name = setTrigger)]
    pub fn set_trigger(&mut self, id: f64, mode: &str) -> Result<(), JsError> {
        let mode = input::event_mode(mode).map_err(js)?;
        self.core.modify(id, |c| c.events = mode).map_err(js)
    }

    /// A sensor reports touching only (no contact manifold).
    #[wasm_bindgen(js_name = setSensor)]
    pub fn set_sensor(&mut self, id: f64, sensor: bool) -> Result<(), JsError> {
        self.core.modify(id, |c| c.sensor = sensor).map_err(js)
    }

    /// Leaves the world at its first contact.
    #[wasm_bindgen(js_name = setRemoveOnContact)]
    pub fn set_remove_on_contact(&mut self, id: f64, remove: bool) -> Result<(), JsError> {
        self.core
            .modify(id, |c| c.remove_on_contact = remove)
            .map_err(js)
    }

    /// Swept from its pose at the last update to the current one, so that a
    /// fast move cannot jump past a collider.
    #[wasm_bindgen(js_name = setSwept)]
    pub fn set_swept(&mut self, id: f64, swept: bool) -> Result<(), JsError> {
        self.core.modify(id, |c| c.ccd = swept).map_err(js)
    }

    /// Its collision filter: the categories it belongs to and those it
    /// collides with (32 bits each); two colliders touch when each one's
    /// mask holds a category of the other.
    #[wasm_bindgen(js_name = setFilter)]
    pub fn set_filter(&mut self, id: f64, category: u32, mask: u32) -> Result<(), JsError> {
        let filter = peng::d2::CollisionFilter::new(u64::from(category), u64::from(mask));
        self.core.modify(id, |c| c.filter = filter).map_err(js)
    }

    /// Watches every pair of one collider in `a` and one in `b`, in `mode`;
    /// returns the set's number (events carry it).
    pub fn watch(&mut self, a: &[f64], b: &[f64], mode: &str) -> Result<u32, JsError> {
        self.core.watch(a, b, mode).map_err(js)
    }

    /// Stops a watched set; returns whether it existed.
    pub fn unwatch(&mut self, set: f64) -> bool {
        self.core.unwatch(set)
    }

    /// Runs the update; returns the number of events.
    pub fn update(&mut self) -> usize {
        self.core.update()
    }

    /// The last update's events, `eventStride` numbers each (see the
    /// package's documentation for their order).
    pub fn events(&self) -> Vec<f64> {
        self.core.events().to_vec()
    }

    /// The number of colliders.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.core.len()
    }
}
