import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import MenuOutlined from '@ant-design/icons-svg/es/asn/MenuOutlined';
import { Icon } from './Icon';

describe('Icon', () => {
  it('draws the icon set\'s outline as inline SVG in the text colour, hidden from screen readers', () => {
    const { container } = render(<Icon def={MenuOutlined} />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('viewBox')).toBe('64 64 896 896');
    expect(svg.getAttribute('fill')).toBe('currentColor');
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M904 160H120/);
  });

  it('spells SVG attributes as React does and draws two-tone definitions in one colour', () => {
    const def: IconDefinition = {
      name: 'x',
      theme: 'twotone',
      icon: (primary, secondary): AbstractNode => ({
        tag: 'svg',
        attrs: { viewBox: '0 0 8 8' },
        children: [
          { tag: 'path', attrs: { d: 'M0 0h8', 'fill-rule': 'evenodd', fill: primary } },
          { tag: 'path', attrs: { d: 'M0 8h8', fill: secondary } },
        ],
      }),
    };
    const { container } = render(<Icon def={def} />);
    const paths = container.querySelectorAll('path');
    expect(paths[0]!.getAttribute('fill-rule')).toBe('evenodd');
    expect([...paths].map((p) => p.getAttribute('fill'))).toEqual(['currentColor', 'currentColor']);
  });
});
