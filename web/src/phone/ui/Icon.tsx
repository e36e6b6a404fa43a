// The console's icon set (Ant Design's outlines, as the data of @ant-design/icons-svg) drawn as inline SVG, so the
// phone app's buttons read the same on any machine — emoji and dingbat glyphs are empty boxes where no emoji font
// is installed (issue 33) — without taking the console's UI kit into the phone's bundle.
import { createElement, type ReactElement } from 'react';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

/** SVG attribute names as React spells them (fill-rule → fillRule). */
function props(attrs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) out[k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  return out;
}

function draw(n: AbstractNode, key: number): ReactElement {
  return createElement(n.tag, { ...props(n.attrs), key }, n.children?.map(draw));
}

/** One icon at the surrounding font size, in the text colour; decorative (the button carries the label). */
export function Icon({ def }: { def: IconDefinition }) {
  const root = typeof def.icon === 'function' ? def.icon('currentColor', 'currentColor') : def.icon;
  return createElement(
    'svg',
    { ...props(root.attrs), width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': true, className: 'p-svg', 'data-icon': def.name },
    root.children?.map(draw),
  );
}
