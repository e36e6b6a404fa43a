// Browser case of the walkable areas (ADR 0023 "Walkable areas"): on /indoor a dispatcher sees the demo floor's
// areas, draws a new one corner by corner on the plan, names it and saves it (the server lists it), is stopped by the
// polygon rule before saving a crossing outline, and deletes the area again. No terminal is driven.
import { api, dispatcherConsole, expect, until } from './harness.mjs';

/** Clicks plan pixel (x, y) of the floor plan's SVG (its viewBox is the image's pixels). */
async function clickPlan(page, x, y) {
  const at = await page.evaluate(
    ([x, y]) => {
      const svg = document.querySelector('[data-testid=indoor-plan]');
      const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
      return { x: p.x, y: p.y };
    },
    [x, y],
  );
  await page.mouse.click(at.x, at.y);
}

async function groundFloor(page) {
  const list = await api(page, 'GET', '/ds/indoor/building/list');
  const b = list.result.list.find((x) => x.name === 'Demo Office');
  return b.floors.find((f) => f.level === 0);
}

export const indoor3mCases = [
  [
    'indoor3m: a dispatcher draws a walkable area on the plan, the polygon rule stops a crossing one, and the area is deleted',
    async ({ context }) => {
      const { page, base } = await dispatcherConsole(context);
      const ground = await groundFloor(page);
      expect(ground && ground.areas.length > 10, `the demo ground floor has its corridor, rooms and doors (${ground?.areas.length})`);
      await page.goto(`${base}/indoor`);
      await page.waitForSelector('[data-testid=indoor-plan]', { timeout: 20_000 });
      await page.click('[data-testid=indoor-edit]');
      await page.click('[data-testid=indoor-edit-what] .ant-segmented-item:nth-child(2)');
      await until(async () => (await page.$$('[data-testid=indoor-area]')).length === ground.areas.length, 'the floor\'s walkable areas are drawn');
      let created;
      try {
        // A crossing outline (a bow tie): the dialog names the problem and will not save it.
        await page.click('[data-testid=indoor-area-draw]');
        for (const [x, y] of [[40, 40], [120, 120], [120, 40], [40, 120]]) await clickPlan(page, x, y);
        await page.waitForSelector('[data-testid=indoor-area-draft][data-points="4"]', { timeout: 5_000 });
        await page.click('[data-testid=indoor-area-finish]');
        const save = await page.waitForSelector('[data-testid=indoor-area-save]', { timeout: 5_000 });
        expect(await save.isDisabled(), 'a crossing outline cannot be saved');
        await page.click('[data-testid=indoor-area-cancel]');
        await page.click('[data-testid=indoor-area-stop]');
        await until(async () => !(await page.$('[data-testid=indoor-area-draft]')), 'the draft is dropped');
        // A room corner, 4 m × 4 m.
        await page.click('[data-testid=indoor-area-draw]');
        for (const [x, y] of [[40, 40], [120, 40], [120, 120], [40, 120]]) await clickPlan(page, x, y);
        await page.waitForSelector('[data-testid=indoor-area-draft][data-points="4"]', { timeout: 5_000 });
        await page.click('[data-testid=indoor-area-finish]');
        await page.fill('[data-testid=indoor-area-name]', 'E2E store room');
        await page.click('[data-testid=indoor-area-save]');
        created = await until(async () => (await groundFloor(page)).areas.find((a) => a.name === 'E2E store room'), 'the server lists the new area');
        const near = (a, b) => Math.abs(a - b) <= 1.5;
        expect(
          created.points.length === 4 && near(created.points[0][0], 40) && near(created.points[0][1], 40) && near(created.points[2][0], 120) && near(created.points[2][1], 120),
          `the area is where it was drawn: ${JSON.stringify(created.points)}`,
        );
        await page.waitForSelector(`[data-testid=indoor-area][data-area-id="${created.id}"]`, { timeout: 10_000 });
        // Open it from the plan and delete it.
        await page.click(`[data-testid=indoor-area][data-area-id="${created.id}"]`, { force: true });
        await page.click('[data-testid=indoor-area-delete]');
        await page.click('.ant-popconfirm:visible .ant-btn-primary');
        await until(async () => !(await groundFloor(page)).areas.some((a) => a.id === created.id), 'the area is deleted');
        await until(async () => !(await page.$(`[data-testid=indoor-area][data-area-id="${created.id}"]`)), 'and gone from the plan');
        created = undefined;
      } finally {
        if (created) await api(page, 'DELETE', '/ds/indoor/area/delete', { id: created.id });
      }
    },
  ],
];
