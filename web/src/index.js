// peng in the browser: the collision world and the page component.
export { CollisionWorld, load } from './world.js';
export { CollisionComponent } from './component.js';
