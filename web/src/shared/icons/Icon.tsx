// The console's icon set (Ant Design's outlines, as the data of @ant-design/icons-svg) drawn as inline SVG, for the
// screens that run without the UI kit: the login page (it paints before the kit loads) and the phone app (whose
// buttons read the same on any machine — emoji are empty boxes where no emoji font is installed, issue 33).
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

/** One icon at the surrounding font size, in the text colour; decorative (the control carries the label). */
export function Icon({ def, className }: { def: IconDefinition; className?: string }) {
  const root = typeof def.icon === 'function' ? def.icon('currentColor', 'currentColor') : def.icon;
  return createElement(
    'svg',
    { ...props(root.attrs), width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': true, className, 'data-icon': def.name },
    root.children?.map(draw),
  );
}
