// Type-checked (never run) by test/types.test.mjs: the package used as a
// page would use it, and misuse that the declarations must reject.
import { CollisionComponent, CollisionWorld, load, type ContactEvent } from '../../src/index.js';

export async function world(): Promise<number> {
  await load();
  const w = new CollisionWorld();
  const ball = w.addCircle(0, 100, 10);
  const block = w.addBox(0, 0, 50, 10);
  const pill = w.addCapsule(0, 0, 20, 5, Math.PI / 4);
  const tri = w.addPolygon(0, 0, 0, [[0, 0], [10, 0], [0, 10]]);
  w.setPoses([ball, 0, 15, 0, pill, 5, 5, 0]);
  w.setMargin(ball, { boundary: 10 });
  w.setMargin(tri, null);
  w.setFilter(block, 1, 2);
  const set = w.watch([ball], [block], 'continuous');
  const events: ContactEvent[] = w.update();
  for (const e of events) {
    if (e.kind === 'began' && e.point && e.watch === set) return e.point.x + e.a + (e.toi ?? 0);
  }
  // @ts-expect-error: the trigger modes are 'once' and 'continuous'.
  w.watch([ball], [block], 'sometimes');
  // @ts-expect-error: a margin is a boundary or a centre distance.
  w.setMargin(ball, { radius: 3 });
  return w.size;
}

export function component(): CollisionComponent {
  const c = new CollisionComponent({
    colliders: '.ball',
    targets: [document.body, '#block'],
    trigger: 'once',
    margin: { centre: 20 },
    hideOnCollision: true,
    onCollision: (e) => console.log(e.collider, e.target, e.point?.x, e.began),
    onSeparation: (e) => console.log(e.type),
  });
  // @ts-expect-error: colliders and targets are required.
  new CollisionComponent({ colliders: '.ball' });
  // @ts-expect-error: an unknown option.
  new CollisionComponent({ colliders: '.a', targets: '.b', speed: 3 });
  c.ready.then((ready) => ready.stop());
  return c;
}
